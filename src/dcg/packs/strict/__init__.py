"""Opt-in stricter rules for teams that want more than the core packs."""
