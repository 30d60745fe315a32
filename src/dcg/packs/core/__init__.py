"""The built-in packs, always enabled."""
