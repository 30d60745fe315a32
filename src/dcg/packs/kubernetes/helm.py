"""Helm: uninstalling releases and forced rollbacks or upgrades."""

from dcg.model import Pack, Rule

PACK = Pack(
    "kubernetes.helm",
    description="Helm: uninstall/delete of releases, rollback or upgrade with --force",
    safe=(
        r"^helm\s(?:.*\s)?--dry-run(?:=(?:client|server|true))?(?:\s|$)",
        r"^helm\s(?:.*\s)?(?:--help|-h)$",
    ),
    rules=(
        Rule(
            "uninstall",
            severity="high",
            pattern=r"^helm\s(?:.*\s)?(?:uninstall|delete|del|un)\s",
            reason="helm uninstall deletes every Kubernetes resource of the release",
            explanation="All objects the chart created (deployments, services, config maps, "
            "secrets and, depending on the chart, volume claims) are deleted, and without "
            "--keep-history the release record goes too, so helm rollback cannot restore it.",
            alternative="Save the values and manifest (helm get values/manifest RELEASE) and "
            "run with --dry-run first; use --keep-history.",
            blocks=("helm uninstall payments -n prod", "helm delete --purge old-release"),
            allows=("helm list -A", "helm uninstall payments --dry-run", "helm status payments"),
        ),
        Rule(
            "force",
            severity="medium",
            pattern=r"^helm\s(?=(?:.*\s)?--force(?:\s|=true|$))(?:.*\s)?(?:rollback|upgrade)\s",
            reason="helm rollback/upgrade --force deletes and recreates resources",
            explanation="--force replaces resources through delete and create instead of a "
            "patch, which restarts pods and can drop objects whose recreation fails.",
            alternative="Roll back or upgrade without --force and fix the conflicting "
            "resource explicitly.",
            blocks=("helm rollback api 3 --force", "helm upgrade --install api ./chart --force"),
            allows=("helm rollback api 3", "helm history api"),
        ),
    ),
)
