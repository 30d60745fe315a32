"""kubectl: deleting namespaces and resources, draining nodes, forced replaces and scaling to 0."""

from dcg.model import Pack, Rule

_K = r"^kubectl\s"
# Global options that may stand between `kubectl` and its subcommand; the verb must be
# the subcommand itself, not any later word (`kubectl auth can-i delete pods` is a query).
_G = (
    r"(?:(?:-n|--namespace|--context|--kubeconfig|--cluster|--user|-s|--server|--token|-v"
    r"|--as|--as-group|--request-timeout) [^ ]+ |--?[a-zA-Z-]+=[^ ]+ |-[a-zA-Z] )*"
)

PACK = Pack(
    "kubernetes.kubectl",
    description="kubectl: delete namespace/all/--all/CRDs/volumes, apply --prune, drain, "
    "replace --force, scale to zero",
    safe=(
        # Client- or server-side dry runs change nothing; --dry-run=none is a real run.
        _K + r"(?:.*\s)?--dry-run(?:=(?:client|server))?(?:\s|$)",
        _K + r"(?:.*\s)?(?:--help|-h)$",
    ),
    rules=(
        Rule(
            "delete-all-namespaces",
            severity="critical",
            pattern=_K + r"(?=(?:.*\s)?(?:--all-namespaces|-A)(?:\s|=|$))" + _G + r"delete\s",
            keywords=("delete",),
            reason="kubectl delete across all namespaces removes the resources cluster-wide",
            explanation="With --all-namespaces (-A) the delete applies to every namespace, "
            "system ones included; combined with --all or a broad selector it takes down the "
            "whole cluster's workloads.",
            alternative="Target one namespace with -n, list first with kubectl get -A and the "
            "same selector, and use --dry-run=server.",
            blocks=(
                "kubectl delete pods --all -A",
                "kubectl delete deploy -l tier=web --all-namespaces",
            ),
            allows=("kubectl get pods -A", "kubectl delete pods --all -A --dry-run=server"),
        ),
        Rule(
            "delete-namespace",
            severity="critical",
            pattern=_K + _G + r"delete\s+(?:ns|namespaces?)(?:\s|/|$)",
            keywords=("delete",),
            reason="Deleting a namespace deletes every resource in it",
            explanation="A namespace deletion cascades to all deployments, services, secrets, "
            "config maps and persistent volume claims it contains; with a Delete reclaim "
            "policy the volumes' data goes too. It cannot be stopped once it starts.",
            alternative="Export what you need (kubectl get all,cm,secret,pvc -n NS -o yaml), "
            "check the context (kubectl config current-context) and delete individual "
            "resources instead.",
            blocks=(
                "kubectl delete namespace production",
                "kubectl --context prod delete ns payments",
                "kubectl delete namespace/staging",
            ),
            allows=("kubectl get namespaces", "kubectl create namespace staging"),
        ),
        Rule(
            "delete-crd",
            severity="critical",
            pattern=_K + _G + r"delete\s+(?:crds?|customresourcedefinitions?)(?:\s|/|$)",
            keywords=("delete",),
            reason="Deleting a CRD deletes every custom resource of that kind in the cluster",
            explanation="Removing a CustomResourceDefinition garbage-collects all its objects "
            "in every namespace (certificates, databases managed by an operator, …), and "
            "operators may then tear down what those objects described.",
            alternative="Back up the custom resources (kubectl get KIND -A -o yaml) and "
            "uninstall the operator through its own procedure.",
            blocks=(
                "kubectl delete crd certificates.cert-manager.io",
                "kubectl delete customresourcedefinition/postgresclusters.example.com",
            ),
            allows=("kubectl get crd", "kubectl describe crd certificates.cert-manager.io"),
        ),
        Rule(
            "delete-all",
            severity="high",
            pattern=_K
            + r"(?:(?=(?:.*\s)?--all(?:\s|=|$))"
            + _G
            + r"delete\s|"
            + _G
            + r"delete\s+all(?:\s|,|$))",
            keywords=("delete",),
            reason="kubectl delete --all / delete all removes every matching resource in the "
            "namespace",
            explanation="--all selects every object of the given kinds, and the kind 'all' "
            "covers pods, services, deployments, replica sets, stateful sets and jobs. The "
            "namespace's workloads are gone at once.",
            alternative="Delete by name or narrow label selector, after listing with kubectl "
            "get using the same arguments.",
            blocks=(
                "kubectl delete pods --all",
                "kubectl -n staging delete all --all",
                "kubectl delete all -l app=api",
            ),
            allows=("kubectl get all -n staging", "kubectl delete pod api-7d9f --dry-run=client"),
        ),
        Rule(
            "delete-storage",
            severity="high",
            pattern=_K + _G + r"delete\s+(?:pvc?|persistentvolumes?|persistentvolumeclaims?|"
            r"statefulsets?|sts|secrets?)(?:\s|/|,|$)",
            keywords=("delete",),
            reason="Deleting volumes, claims, stateful sets or secrets can destroy data",
            explanation="With the common Delete reclaim policy, removing a PVC or PV deletes "
            "the underlying disk. Stateful sets and secrets are often the only record of "
            "database state and credentials.",
            alternative="Check the reclaim policy (kubectl get pv), set it to Retain, and "
            "export secrets before deleting.",
            blocks=(
                "kubectl delete pvc data-postgres-0",
                "kubectl -n db delete statefulset postgres",
            ),
            allows=("kubectl get pvc", "kubectl describe pv pvc-1234"),
        ),
        Rule(
            "apply-prune",
            severity="high",
            pattern=_K + r"(?=(?:.*\s)?--prune(?:\s|=|$))(?:.*\s)?apply\s",
            keywords=("apply",),
            reason="kubectl apply --prune deletes objects that are not in the applied manifests",
            explanation="Every object matching the selector that the manifests no longer "
            "mention is deleted. Applying a partial directory or a wrong selector prunes "
            "live workloads.",
            alternative="Run kubectl diff first, or apply without --prune and delete leftovers "
            "by name.",
            blocks=(
                "kubectl apply -f manifests/ --prune -l app=shop",
                "kubectl apply --prune --all -f k8s/",
            ),
            allows=("kubectl apply -f manifests/", "kubectl diff -f manifests/"),
        ),
        Rule(
            "replace-force",
            severity="high",
            pattern=_K + r"(?=(?:.*\s)?--force(?:\s|=true|$))(?:.*\s)?replace\s",
            keywords=("replace",),
            reason="kubectl replace --force deletes the live object and recreates it",
            explanation="Instead of updating in place, --force deletes the resource (and with "
            "it, pods or dependants) and creates it again; if creation fails the resource is "
            "simply gone.",
            alternative="Use kubectl apply or replace without --force, after kubectl diff.",
            blocks=(
                "kubectl replace --force -f deploy.yaml",
                "kubectl -n prod replace -f svc.yaml --force",
            ),
            allows=("kubectl replace -f deploy.yaml", "kubectl diff -f deploy.yaml"),
        ),
        Rule(
            "drain",
            severity="medium",
            pattern=_K + r"(?:.*\s)?drain\s",
            keywords=("drain",),
            reason="kubectl drain evicts every pod from a node",
            explanation="All pods are evicted and the node is cordoned; with "
            "--delete-emptydir-data local scratch data is deleted and --force removes pods "
            "that no controller will recreate.",
            alternative="Cordon the node first, check kubectl get pods -o wide on it and "
            "pod disruption budgets, and uncordon when done.",
            blocks=(
                "kubectl drain node-3 --ignore-daemonsets",
                "kubectl drain worker-1 --force --delete-emptydir-data",
            ),
            allows=("kubectl cordon node-3", "kubectl uncordon node-3"),
        ),
        Rule(
            "scale-zero",
            severity="medium",
            pattern=_K + r"(?=(?:.*\s)?--replicas(?:=|\s+)0(?:\s|$))(?:.*\s)?scale\s",
            keywords=("scale",),
            reason="Scaling to zero replicas takes the workload offline",
            explanation="Every pod of the deployment or stateful set is terminated and the "
            "service stops answering until someone scales it back up.",
            alternative="Scale down gradually, or note the current replica count (kubectl get "
            "deploy) so it can be restored.",
            blocks=(
                "kubectl scale deploy/api --replicas=0",
                "kubectl -n prod scale statefulset db --replicas 0",
            ),
            allows=("kubectl scale deploy/api --replicas=3", "kubectl get deploy api"),
        ),
        Rule(
            "delete",
            severity="medium",
            # `delete` may end the line: `… | xargs kubectl delete` supplies the names.
            pattern=_K + _G + r"delete(?:\s|$)",
            keywords=("delete",),
            reason="kubectl delete removes cluster resources",
            explanation="Deleted deployments, services, config maps and the like disappear "
            "immediately, together with dependants through garbage collection. Only "
            "manifests kept elsewhere let you recreate them.",
            alternative="Check the context and namespace, use --dry-run=server, and keep the "
            "manifest (kubectl get … -o yaml) before deleting.",
            blocks=("kubectl delete deployment api", "kubectl delete -f k8s/"),
            allows=("kubectl get deployment api", "kubectl delete deployment api --dry-run=client"),
        ),
    ),
)
