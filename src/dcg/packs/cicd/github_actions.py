"""GitHub Actions via gh: deleting runs, caches, secrets and variables, disabling workflows."""

from dcg.model import Pack, Rule

_GH = r"^gh\s"

PACK = Pack(
    "cicd.github_actions",
    description="GitHub Actions: secret, variable, run and cache deletion, workflow disabling",
    rules=(
        Rule(
            "secret-delete",
            severity="high",
            pattern=_GH + r"secret\s(?:delete|remove)\b",
            reason="gh secret delete removes an Actions, Dependabot or Codespaces secret",
            explanation="GitHub never shows a secret's value again, so a deleted secret can "
            "only be recreated from its source; workflows that use it fail or run without it.",
            alternative="Set the new value with gh secret set (it overwrites) instead of deleting.",
            blocks=(
                "gh secret delete AWS_SECRET_ACCESS_KEY",
                "gh secret delete NPM_TOKEN --org acme",
            ),
            allows=("gh secret list", "gh secret set NPM_TOKEN < token.txt"),
        ),
        Rule(
            "variable-delete",
            severity="medium",
            pattern=_GH + r"variable\s(?:delete|remove)\b",
            reason="gh variable delete removes an Actions configuration variable",
            explanation="Workflows reading vars.NAME get an empty string, which can change "
            "what they deploy or where.",
            alternative="gh variable get NAME first and keep the value.",
            blocks=("gh variable delete DEPLOY_ENV", "gh variable delete REGION --env production"),
            allows=("gh variable list", "gh variable get DEPLOY_ENV"),
        ),
        Rule(
            "run-delete",
            severity="medium",
            pattern=_GH + r"run\sdelete\b",
            reason="gh run delete removes a workflow run with its logs and artifacts",
            explanation="The run's logs, artifacts and summary are deleted for good.",
            alternative="gh run download and gh run view --log first.",
            blocks=("gh run delete 1234567890", "gh run delete 42 -R acme/app"),
            allows=("gh run view 1234567890 --log", "gh run list"),
        ),
        Rule(
            "cache-delete",
            severity="low",
            pattern=_GH + r"cache\sdelete\b",
            reason="gh cache delete removes Actions caches",
            explanation="Builds get slower until the caches are rebuilt; with --all every "
            "cache of the repository goes.",
            alternative="Delete only the cache key that is stale.",
            blocks=("gh cache delete --all", "gh cache delete npm-linux-abc123"),
            allows=("gh cache list", "gh run list"),
        ),
        Rule(
            "workflow-disable",
            severity="low",
            pattern=_GH + r"workflow\sdisable\b",
            reason="gh workflow disable stops a workflow from running",
            explanation="Scheduled and triggered runs stop (deploys, backups, security "
            "scans) until someone enables it again.",
            alternative="Add a condition to the workflow, or disable it in a pull request.",
            blocks=(
                "gh workflow disable nightly-backup.yml",
                "gh workflow disable 1234 -R acme/app",
            ),
            allows=("gh workflow list", "gh workflow enable nightly-backup.yml"),
        ),
    ),
)
