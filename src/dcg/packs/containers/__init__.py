"""Container packs: Docker, Docker Compose and Podman."""
