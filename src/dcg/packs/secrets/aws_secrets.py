"""AWS Secrets Manager: deleting, overwriting and re-keying secrets with the aws CLI."""

from dcg.model import Pack, Rule

# `aws [global options] secretsmanager `: an option may take one value word.
_SM = r"^aws\s(?:-[^\s]*\s(?:[^\s-][^\s]*\s)?)*secretsmanager\s"

PACK = Pack(
    "secrets.aws_secrets",
    description="AWS Secrets Manager: secret deletion, value and key changes, policies",
    # The aws CLI shows documentation, and does nothing else, when the last word is `help`.
    safe=(r"^aws\s.*\shelp$",),
    rules=(
        Rule(
            "delete-secret-now",
            severity="high",
            pattern=_SM + r"delete-secret\s(?:.*\s)?--force-delete-without-recovery(?:[\s=]|$)",
            reason="delete-secret --force-delete-without-recovery deletes the secret at once",
            explanation="Without a recovery window the secret and all of its versions are "
            "deleted immediately and cannot be restored; every application reading it fails.",
            alternative="Delete with a recovery window (--recovery-window-in-days 7..30) so "
            "restore-secret can bring it back.",
            blocks=(
                "aws secretsmanager delete-secret --secret-id my/secret "
                "--force-delete-without-recovery",
                "aws --region eu-west-1 secretsmanager delete-secret "
                "--force-delete-without-recovery --secret-id db",
            ),
            allows=(
                "aws secretsmanager delete-secret --secret-id my/secret "
                "--recovery-window-in-days 30",
                "aws secretsmanager delete-secret help",
            ),
        ),
        Rule(
            "delete-secret",
            severity="medium",
            pattern=_SM + r"delete-secret\b",
            reason="delete-secret schedules the secret for deletion after a recovery window",
            explanation="The secret becomes unreadable at once, so its consumers fail, and is "
            "deleted for good when the window (7 to 30 days, default 30) ends unless someone "
            "runs restore-secret in time.",
            alternative="Check who reads it (CloudTrail GetSecretValue events) and tag it as "
            "deprecated before deleting.",
            blocks=(
                "aws secretsmanager delete-secret --secret-id my/secret "
                "--recovery-window-in-days 7",
                "aws --profile prod secretsmanager delete-secret --secret-id "
                "arn:aws:secretsmanager:us-east-1:1:secret:db",
            ),
            allows=(
                "aws secretsmanager restore-secret --secret-id my/secret",
                "aws secretsmanager describe-secret --secret-id my/secret",
            ),
        ),
        Rule(
            "put-secret-value",
            severity="medium",
            pattern=_SM + r"put-secret-value\b",
            reason="put-secret-value makes a new value the current version of the secret",
            explanation="Every reader gets the new value at once; a wrong value breaks clients, "
            "and the previous one survives only as AWSPREVIOUS until the next change.",
            alternative="Stage the value with --version-stages AWSPENDING, test it, then move "
            "AWSCURRENT with update-secret-version-stage.",
            blocks=(
                "aws secretsmanager put-secret-value --secret-id my/secret --secret-string x",
                "aws secretsmanager put-secret-value --secret-id my/secret --secret-binary "
                "fileb://p.bin",
            ),
            allows=(
                "aws secretsmanager get-secret-value --secret-id my/secret",
                "aws secretsmanager list-secret-version-ids --secret-id my/secret",
            ),
        ),
        Rule(
            "update-secret",
            severity="medium",
            pattern=_SM + r"update-secret\b(?!-)",
            reason="update-secret changes a secret's value, KMS key or description in place",
            explanation="A new --secret-string/--secret-binary becomes the current version; a "
            "new --kms-key-id re-encrypts future versions with a key that readers may not be "
            "allowed to use, which breaks them.",
            alternative="Describe the secret first and stage new values as AWSPENDING.",
            blocks=(
                "aws secretsmanager update-secret --secret-id my/secret --kms-key-id alias/new",
                "aws secretsmanager update-secret --secret-id my/secret --secret-string x",
            ),
            allows=(
                "aws secretsmanager describe-secret --secret-id my/secret",
                "aws secretsmanager update-secret-version-stage help",
            ),
        ),
        Rule(
            "policy-or-rotation",
            severity="medium",
            pattern=_SM
            + r"(?:delete-resource-policy|put-resource-policy|rotate-secret|cancel-rotate-secret"
            r"|remove-regions-from-replication|stop-replication-to-replica)\b",
            reason="Changing a secret's access policy, rotation or replication",
            explanation="Policy changes can lock readers out (or let others in); rotate-secret "
            "replaces the credential immediately; dropping a replica region deletes the copy "
            "that workloads in that region read.",
            alternative="get-resource-policy / describe-secret first and keep the output.",
            blocks=(
                "aws secretsmanager delete-resource-policy --secret-id my/secret",
                "aws secretsmanager rotate-secret --secret-id my/secret",
            ),
            allows=(
                "aws secretsmanager get-resource-policy --secret-id my/secret",
                "aws secretsmanager validate-resource-policy --resource-policy file://p.json",
            ),
        ),
    ),
)
