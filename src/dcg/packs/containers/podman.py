"""Podman: system reset, pruning and forced removal of containers, pods, images and volumes."""

from dcg.model import Pack, Rule

PACK = Pack(
    "containers.podman",
    description="Podman: system reset, volume/system prune, volume rm, rm -f of containers, "
    "pods and images",
    safe=(r"^podman\s(?:.*\s)?(?:--help|-h)$",),
    rules=(
        Rule(
            "system-reset",
            severity="critical",
            pattern=r"^podman\s(?:.*\s)?system\s+reset(?:\s|$)",
            reason="podman system reset deletes all containers, pods, images and volumes",
            explanation="The command wipes the whole storage of the user (or of root): every "
            "container, pod, image, volume and network, and the configuration caches. Volume "
            "data is not recoverable.",
            alternative="Remove what you need to remove by name, and export volumes "
            "(podman volume export) before any cleanup.",
            blocks=("podman system reset", "podman system reset --force"),
            allows=("podman system info", "podman system df"),
        ),
        Rule(
            "volume-prune",
            severity="high",
            pattern=r"^podman\s(?:(?=(?:.*\s)?--volumes(?:\s|$))(?:.*\s)?system\s+prune|"
            r"(?:.*\s)?volume\s+(?:prune|rm|remove)\s?)",
            reason="Removing or pruning volumes deletes their data",
            explanation="podman volume rm/prune (and system prune --volumes) delete volume "
            "directories; anything a stopped or recreated container kept there is gone.",
            alternative="podman volume export VOL > vol.tar first and remove volumes by name.",
            blocks=(
                "podman volume prune -f",
                "podman volume rm pgdata",
                "podman system prune --volumes",
            ),
            allows=("podman volume ls", "podman volume export pgdata"),
        ),
        Rule(
            "prune",
            severity="medium",
            pattern=r"^podman\s(?:.*\s)?(?:system|container|image|pod|network)\s+prune(?:\s|$)",
            reason="podman prune removes stopped containers, pods, unused images or networks",
            explanation="Stopped containers lose their writable layer and locally built images "
            "must be rebuilt; -f skips the confirmation.",
            alternative="Check podman ps -a and podman images first and remove by name.",
            blocks=("podman system prune -af", "podman pod prune -f"),
            allows=("podman system df", "podman pod ps"),
        ),
        Rule(
            "rm-force",
            severity="medium",
            pattern=r"^podman\s(?=(?:.*\s)?(?:-[a-zA-Z]*f[a-zA-Z]*|--force|-a|--all)(?:\s|$))(?:.*\s)?"
            r"(?:rm|rmi|container\s+rm|image\s+rm|pod\s+rm)\s",
            reason="podman rm -f / --all kills and removes containers or pods (rmi -f forces "
            "images out)",
            explanation="-f stops running containers or pods and deletes them with their "
            "writable layers; --all applies it to every one of them.",
            alternative="podman stop first, check podman ps, then remove by name without -f.",
            blocks=("podman rm -f web", "podman pod rm --all --force", "podman rm -a"),
            allows=("podman rm web", "podman ps -a"),
        ),
    ),
)
