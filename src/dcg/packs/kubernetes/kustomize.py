"""Kustomize: deleting every resource of a kustomization from the cluster."""

from dcg.model import Pack, Rule

PACK = Pack(
    "kubernetes.kustomize",
    description="Kustomize: kubectl delete -k, and kubectl delete -f - fed by kustomize build",
    safe=(r"^kubectl\s(?:.*\s)?--dry-run(?:=(?:client|server))?(?:\s|$)",),
    rules=(
        Rule(
            "delete-kustomization",
            severity="high",
            pattern=r"^kubectl\s(?=(?:.*\s)?(?:-k|--kustomize)(?:\s|=|$))(?:.*\s)?delete\s",
            reason="kubectl delete -k deletes every resource the kustomization renders",
            explanation="The whole overlay is deleted: workloads, services, config and, when "
            "the kustomization declares one, the namespace with everything else in it.",
            alternative="Render first (kubectl kustomize DIR) to see what would go, and use "
            "--dry-run=server.",
            blocks=("kubectl delete -k overlays/prod", "kubectl -n shop delete --kustomize=./k8s"),
            allows=("kubectl apply -k overlays/prod", "kubectl kustomize overlays/prod"),
        ),
        Rule(
            "delete-stdin",
            severity="high",
            pattern=r"^kubectl\s(?=(?:.*\s)?(?:-f|--filename)(?:\s+|=)-(?:\s|$))(?:.*\s)?delete\s",
            reason="kubectl delete -f - deletes whatever a pipeline renders "
            "(kustomize build | kubectl delete -f -)",
            explanation="The resources come from the previous command's output, typically a "
            "whole kustomize or helm rendering, so everything in it is deleted at once.",
            alternative="Write the rendering to a file, read it, then delete with --dry-run first.",
            blocks=(
                "kustomize build overlays/prod | kubectl delete -f -",
                "kubectl delete --filename=- < rendered.yaml",
            ),
            allows=(
                "kustomize build overlays/prod | kubectl apply -f -",
                "kustomize build overlays/prod",
            ),
        ),
    ),
)
