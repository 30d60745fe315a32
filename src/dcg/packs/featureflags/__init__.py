"""Feature flag services: LaunchDarkly, Unleash, Flipt and Split."""
