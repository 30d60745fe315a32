"""Terraform and OpenTofu: destroy, apply -destroy, state surgery and workspace deletion."""

from dcg.model import Pack, Rule

_T = r"^(?:terraform|tofu|terragrunt)\s"

PACK = Pack(
    "infrastructure.terraform",
    description="Terraform/OpenTofu: destroy, apply -destroy, auto-approved apply, state rm, "
    "workspace delete, taint",
    safe=(_T + r"(?:.*\s)?(?:-help|--help|-h)$",),
    rules=(
        Rule(
            "destroy",
            severity="critical",
            pattern=_T
            + r"(?:(?:.*\s)?destroy(?:\s|$)|(?=(?:.*\s)?--?destroy(?:\s|=true|$))(?:.*\s)?apply"
            r"(?:\s|$))",
            reason="terraform destroy deletes every resource managed by the configuration",
            explanation="All managed infrastructure of the workspace (servers, databases, "
            "buckets, DNS) is deleted, in dependency order. Data in destroyed databases and "
            "volumes is gone unless it was backed up.",
            alternative="Run terraform plan -destroy and read it; target single resources "
            "with -target, and protect stateful ones with lifecycle { prevent_destroy = true }.",
            blocks=(
                "terraform destroy -auto-approve",
                "terraform apply -destroy",
                "tofu -chdir=envs/prod destroy",
            ),
            allows=("terraform plan -destroy", "terraform plan", "terraform destroy -help"),
        ),
        Rule(
            "state-rm",
            severity="high",
            pattern=_T + r"(?:.*\s)?state\s+(?:rm|mv|push|replace-provider)(?:\s|$)",
            reason="terraform state rm/mv/push rewrites what Terraform believes it manages",
            explanation="Removing or moving state entries makes Terraform forget real "
            "resources (they become unmanaged or get recreated), and state push overwrites "
            "the remote state, possibly with an older copy.",
            alternative="terraform state pull > backup.tfstate first, and prefer moved/removed "
            "blocks in configuration, which show up in plan.",
            blocks=("terraform state rm aws_db_instance.main", "terraform state push old.tfstate"),
            allows=(
                "terraform state list",
                "terraform state show aws_db_instance.main",
                "terraform state pull",
            ),
        ),
        Rule(
            "workspace-delete",
            severity="high",
            pattern=_T + r"(?:.*\s)?workspace\s+delete(?:\s|$)",
            reason="terraform workspace delete drops a workspace's state",
            explanation="The workspace's state is deleted; with -force even when it still "
            "tracks resources, which then keep running with nothing managing them.",
            alternative="Destroy or migrate the workspace's resources deliberately, and pull "
            "its state as a backup first.",
            blocks=("terraform workspace delete staging", "terraform workspace delete -force dev"),
            allows=("terraform workspace list", "terraform workspace select staging"),
        ),
        Rule(
            "apply-auto-approve",
            severity="medium",
            pattern=_T + r"(?=(?:.*\s)?--?auto-approve(?:\s|=true|$))(?:.*\s)?apply(?:\s|$)",
            reason="terraform apply -auto-approve applies the plan without showing it",
            explanation="Any replacement or deletion in the plan (a forced new resource, a "
            "renamed database) is carried out without a chance to read it.",
            alternative="Run terraform plan -out=tfplan, review it, then terraform apply tfplan.",
            blocks=("terraform apply -auto-approve", "terraform -chdir=prod apply --auto-approve"),
            allows=("terraform apply", "terraform apply tfplan"),
        ),
        Rule(
            "taint",
            severity="medium",
            pattern=_T + r"(?:(?:.*\s)?taint\s|(?=(?:.*\s)?-replace=)(?:.*\s)?apply(?:\s|$))",
            reason="taint / -replace forces a resource to be destroyed and recreated",
            explanation="The next apply deletes the resource and creates a new one; for a "
            "database or disk that means an empty replacement.",
            alternative="Check the plan with -replace first (terraform plan -replace=ADDR).",
            blocks=(
                "terraform taint aws_instance.web",
                "terraform apply -replace=aws_db_instance.main",
            ),
            allows=(
                "terraform untaint aws_instance.web",
                "terraform plan -replace=aws_instance.web",
            ),
        ),
    ),
)
