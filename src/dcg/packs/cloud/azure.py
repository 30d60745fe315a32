"""Azure CLI: deleting resource groups, VMs, databases, storage accounts and other resources."""

from dcg.model import Pack, Rule
from dcg.packs._http import sends

_Z = r"^az\s"

PACK = Pack(
    "cloud.azure",
    description="az: group delete, database and storage account deletes, vm/aks deletes, "
    "other delete commands",
    safe=(_Z + r"(?:.*\s)?(?:--help|-h)$",),
    rules=(
        Rule(
            "group-delete",
            severity="critical",
            pattern=_Z + r"(?:.*\s)?group\s+delete\s",
            reason="az group delete deletes every resource in the resource group",
            explanation="All VMs, databases, storage accounts, networks and keys in the group "
            "are deleted; most of them cannot be restored.",
            alternative="List the group's resources (az resource list -g NAME) and use a "
            "resource lock (az lock create) on production groups.",
            blocks=(
                "az group delete --name prod-rg --yes",
                "az group delete -n rg-test --no-wait -y",
            ),
            allows=("az group list", "az group show --name prod-rg"),
        ),
        Rule(
            "data-delete",
            severity="critical",
            pattern=_Z
            + r"(?:.*\s)?(?:storage\s+account|sql\s+(?:server|db)|cosmosdb(?:\s+[a-z-]+)?"
            r"|postgres\s+(?:flexible-server|server)|mysql\s+(?:flexible-server|server)|keyvault)"
            r"\s+delete\s",
            reason="Deletes a storage account, database server, database or key vault",
            explanation="A storage account takes every container, blob, file share and table "
            "with it; a SQL or PostgreSQL server takes all its databases. Key vault deletion "
            "makes encrypted data unreadable once purged.",
            alternative="Back up or export first, enable soft delete and resource locks, and "
            "double-check the subscription (az account show).",
            blocks=(
                "az storage account delete -n prodstore -g rg --yes",
                "az sql db delete -g rg -s srv -n orders",
                "az keyvault delete --name prod-kv",
            ),
            allows=("az storage account list", "az sql db list -g rg -s srv"),
        ),
        Rule(
            "compute-delete",
            severity="high",
            pattern=_Z + r"(?:.*\s)?(?:vm|vmss|aks|disk|snapshot|webapp|functionapp|"
            r"network\s+vnet)\s+delete\s",
            reason="Deletes VMs, scale sets, AKS clusters, disks or apps",
            explanation="Deleted VMs, disks and snapshots cannot be recovered, and deleting an "
            "AKS cluster removes every workload on it.",
            alternative="Deallocate VMs instead (az vm deallocate) and snapshot disks first.",
            blocks=("az vm delete -g rg -n web1 --yes", "az aks delete -g rg -n prod"),
            allows=("az vm deallocate -g rg -n web1", "az aks list"),
        ),
        Rule(
            "delete",
            severity="medium",
            pattern=_Z + r"(?:.*\s)?(?:delete|purge)\s",
            reason="An az delete command removes an Azure resource",
            explanation="Most Azure resources are deleted immediately with their configuration "
            "and data; --yes skips the prompt.",
            alternative="Show the resource first and check the subscription with az account show.",
            blocks=("az network nsg delete -g rg -n web-nsg", "az ad app delete --id 1234"),
            allows=("az network nsg show -g rg -n web-nsg", "az ad app list"),
        ),
        Rule(
            "rest-delete",
            severity="high",
            pattern=sends("DELETE") + r"https?://" + r"management\.azure\.com/",
            reason="an HTTP DELETE to Azure Resource Manager removes the resource the URL names",
            explanation="curl -X DELETE on management.azure.com is az ... delete without az "
            "and without --yes being needed: a resource group URL deletes every resource in it.",
            alternative="GET the URL first; use the az command and check the subscription "
            "with az account show.",
            blocks=(
                "curl -X DELETE https://management.azure.com/subscriptions/s/resourceGroups/rg",
                "curl --request DELETE 'https://management.azure.com/subscriptions/s?api-version=1'",
            ),
            allows=(
                "curl https://management.azure.com/subscriptions/s/resourceGroups/rg",
                "curl -X DELETE https://example.com/management.azure.com/",
            ),
        ),
    ),
)
