"""Backup tools: restic, borg, rclone and Velero."""
