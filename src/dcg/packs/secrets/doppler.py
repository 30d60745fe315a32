"""Doppler: deleting projects, environments, configs and secrets."""

from dcg.model import Pack, Rule

# `doppler [global flags] ` and the older `doppler enclave …` command tree.
_DOPPLER = r"^doppler\s(?:-[^\s]*\s(?:[^\s-][^\s]*\s)?)*(?:enclave\s)?"

PACK = Pack(
    "secrets.doppler",
    description="Doppler: project, environment, config, secret and token deletion",
    rules=(
        Rule(
            "project-delete",
            severity="critical",
            pattern=_DOPPLER + r"projects?\s(?:delete|rm)\b",
            reason="doppler projects delete removes a project with all its configs and secrets",
            explanation="A project holds every environment and config of an application; "
            "deleting it deletes all of their secrets and access tokens at once, for every "
            "service that reads them.",
            alternative="Download every config first (doppler secrets download --no-file), "
            "or remove access instead of deleting.",
            blocks=("doppler projects delete backend --yes", "doppler projects delete payments -y"),
            allows=("doppler projects list", "doppler projects get backend"),
        ),
        Rule(
            "config-delete",
            severity="high",
            pattern=_DOPPLER + r"(?:configs?|environments?)\s(?:delete|rm)\b",
            reason="Deleting a Doppler config or environment removes its secrets",
            explanation="A config is the set of secrets one deployment reads (dev, prd, a "
            "branch config); an environment holds configs. Deleting either deletes the "
            "secrets, and services using their service tokens fail.",
            alternative="doppler secrets download --project P --config C --no-file > backup.json "
            "first; lock the config (doppler configs lock) if you only want to freeze it.",
            blocks=(
                "doppler configs delete dev --project backend -y",
                "doppler environments delete stg",
            ),
            allows=("doppler configs list --project backend", "doppler configs lock prd"),
        ),
        Rule(
            "secrets-delete",
            severity="high",
            pattern=_DOPPLER + r"secrets?\s(?:delete|rm)\b",
            reason="doppler secrets delete removes secrets from a config",
            explanation="Applications that read the secret get nothing on their next restart "
            "or sync. The value is only recoverable through the config's activity log "
            "rollback, where the plan provides one.",
            alternative="doppler secrets get NAME --plain > backup first, or set an empty value "
            "in a branch config to test the removal.",
            blocks=(
                "doppler secrets delete DATABASE_URL",
                "doppler secrets delete API_KEY --config prd -y",
            ),
            allows=("doppler secrets get DATABASE_URL", "doppler secrets list --project backend"),
        ),
        Rule(
            "token-revoke",
            severity="medium",
            pattern=_DOPPLER
            + r"(?:configs?\stokens?\s(?:revoke|delete)|service-tokens?\sdelete)\b",
            reason="Revoking a Doppler service token cuts off the service that uses it",
            explanation="A service token is how a deployment reads its config; once revoked "
            "that deployment cannot fetch secrets until it gets a new token.",
            alternative="Create and deploy the replacement token before revoking the old one.",
            blocks=(
                "doppler configs tokens revoke ci-token --config prd",
                "doppler configs tokens delete old",
            ),
            allows=(
                "doppler configs tokens --config prd",
                "doppler configs tokens create ci --config prd",
            ),
        ),
    ),
)
