"""Docker: pruning and removing containers, images, networks and volumes."""

from dcg.model import Pack, Rule

PACK = Pack(
    "containers.docker",
    description="Docker: system/volume/image/container/network prune, volume rm, rm -f and rmi -f",
    safe=(r"^docker\s(?:.*\s)?(?:--help|-h)$",),
    rules=(
        Rule(
            "volume-prune",
            severity="high",
            pattern=r"^docker\s(?:(?=(?:.*\s)?--volumes(?:\s|$))(?:.*\s)?system\s+prune|"
            r"(?:.*\s)?volume\s+prune)(?:\s|$)",
            reason="Pruning volumes deletes the data of every volume no container uses",
            explanation="docker volume prune (and system prune --volumes) removes every volume "
            "not attached to a container; with -a even named ones. A database whose container "
            "is merely stopped or recreated loses its data directory for good.",
            alternative="List candidates with docker volume ls -f dangling=true, back up what "
            "matters (docker run --rm -v VOL:/v … tar), and remove volumes by name.",
            blocks=(
                "docker volume prune -f",
                "docker system prune -a --volumes",
                "docker volume prune --all --filter label=env=dev",
            ),
            allows=("docker volume ls -f dangling=true", "docker volume inspect pgdata"),
        ),
        Rule(
            "volume-rm",
            severity="high",
            pattern=r"^docker\s(?:.*\s)?volume\s+(?:rm|remove)\s",
            reason="docker volume rm deletes a volume and all data in it",
            explanation="The volume's directory is removed from the host; databases and "
            "uploads kept in volumes have no other copy unless you made one.",
            alternative="Back up the volume first (docker run --rm -v VOL:/v -v $PWD:/b alpine "
            "tar czf /b/vol.tgz /v) and double-check the name.",
            blocks=("docker volume rm pgdata", "docker volume rm -f app_uploads app_cache"),
            allows=("docker volume ls", "docker volume create pgdata"),
        ),
        Rule(
            "prune",
            severity="medium",
            pattern=r"^docker\s(?:.*\s)?(?:system|container|image|network|builder|buildx)\s+prune"
            r"(?:\s|$)",
            reason="docker prune removes stopped containers, unused images, networks or build "
            "cache",
            explanation="Stopped containers lose their writable layer (files written inside "
            "them), images built locally and never pushed have to be rebuilt, and with -a all "
            "unused images go. Nothing asks again with -f.",
            alternative="Look at docker system df and docker ps -a first; remove specific "
            "containers or images by name, or use --filter until=24h.",
            blocks=(
                "docker system prune -af",
                "docker image prune -a",
                "docker container prune -f",
            ),
            allows=("docker system df", "docker image ls", "docker ps -a"),
        ),
        Rule(
            "rm-force",
            severity="medium",
            # rm/rmi must be the subcommand: `docker run --rm img sh -c "rm -rf /"` runs its
            # command inside the container and removes nothing on the host.
            pattern=r"^docker (?:(?:-H|--host|--context|-c|--config|-l|--log-level) [^ ]+ )*"
            r"(?:rm|rmi|container rm|image rm|container remove|image remove) (?:.* )?"
            r"(?:-[a-zA-Z]*f[a-zA-Z]*|--force)(?: |$)",
            reason="docker rm -f kills and removes running containers (rmi -f forces images out)",
            explanation="-f stops a running container with SIGKILL and deletes it with its "
            "writable layer; combined with $(docker ps -aq) it removes every container on the "
            "host. rmi -f removes images even when containers still use them.",
            alternative="Stop containers with docker stop, check docker ps, then docker rm by "
            "name without -f.",
            blocks=(
                "docker rm -f web",
                "docker rm -vf $(docker ps -aq)",
                "docker rmi --force myapp:latest",
            ),
            allows=("docker rm web", "docker stop web", "docker ps -f status=exited"),
        ),
    ),
)
