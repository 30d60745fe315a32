"""Code hosting platforms driven from their CLIs: GitHub (gh) and GitLab (glab)."""
