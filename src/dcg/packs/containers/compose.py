"""Docker Compose: down -v and forced rm of a project's services."""

from dcg.model import Pack, Rule

PACK = Pack(
    "containers.compose",
    description="Docker Compose / podman-compose: down -v (deletes volumes), down --rmi, rm -f",
    safe=(r"(?:^|\s)compose\s(?:.*\s)?(?:--help|-h)$",),
    rules=(
        Rule(
            "down-volumes",
            severity="high",
            pattern=r"^(?:docker-compose|podman-compose|(?:docker|podman)\s(?=(?:.*\s)?compose\s))"
            r"(?=(?:.*\s)?(?:-[a-zA-Z]*v[a-zA-Z]*|--volumes)(?:\s|$))(?:.*\s)?down(?:\s|$)",
            reason="compose down -v deletes the project's named and anonymous volumes",
            explanation="Besides stopping and removing the containers, -v/--volumes removes "
            "every volume declared in the compose file, which is usually where the database "
            "and uploads live.",
            alternative="Use plain compose down (volumes survive), and back up volumes before "
            "removing them by name.",
            blocks=(
                "docker compose down -v",
                "docker-compose -f prod.yml down --volumes --remove-orphans",
                "podman-compose down -v",
            ),
            allows=("docker compose down", "docker compose ps -a", "docker compose logs -f"),
        ),
        Rule(
            "down-rmi",
            severity="low",
            pattern=r"^(?:docker-compose|podman-compose|(?:docker|podman)\s(?=(?:.*\s)?compose\s))"
            r"(?=(?:.*\s)?--rmi(?:\s|=|$))(?:.*\s)?down(?:\s|$)",
            reason="compose down --rmi removes the project's images",
            explanation="Images used by the services are deleted; locally built ones must be "
            "rebuilt and pulled ones downloaded again.",
            alternative="Remove images later with docker image rm once you know they are unused.",
            blocks=("docker compose down --rmi all", "docker-compose down --rmi=local"),
            allows=("docker compose down", "docker compose images"),
        ),
        Rule(
            "rm-force",
            severity="medium",
            pattern=r"^(?:docker-compose|podman-compose|(?:docker|podman)\s(?=(?:.*\s)?compose\s))"
            r"(?=(?:.*\s)?(?:-[a-zA-Z]*[fsv][a-zA-Z]*|--force|--stop|--volumes)(?:\s|$))"
            r"(?:.*\s)?rm(?:\s|$)",
            reason="compose rm -f/-s/-v removes service containers without asking, with their "
            "anonymous volumes for -v",
            explanation="-f skips the confirmation, -s stops running services first and -v "
            "also deletes anonymous volumes; files written inside the containers are lost.",
            alternative="Run compose ps to see what would go, then compose rm without -f and "
            "answer the prompt.",
            blocks=("docker compose rm -f", "docker-compose rm -sv worker"),
            allows=("docker compose rm", "docker compose ps"),
        ),
    ),
)
