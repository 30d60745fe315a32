"""Monitoring and alerting: Datadog, Prometheus, PagerDuty, New Relic and Splunk."""
