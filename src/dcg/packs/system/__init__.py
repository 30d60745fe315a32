"""System packs: disks, permissions and services."""
