"""Amazon SES: deleting identities, contact lists, configuration sets and turning sending off."""

from dcg.model import Pack, Rule

# `aws [global options] ses|sesv2 `.
_SES = r"^aws\s(?:-[^\s]*\s(?:[^\s-][^\s]*\s)?)*ses(?:v2)?\s"

PACK = Pack(
    "email.ses",
    description="Amazon SES: identity, contact list, configuration set and rule deletion",
    safe=(r"^aws\s.*\shelp$",),
    rules=(
        Rule(
            "identity-delete",
            severity="high",
            pattern=_SES + r"(?:delete-identity|delete-email-identity)\b",
            reason="Deleting a verified SES identity stops mail from that domain or address",
            explanation="Sending from the identity fails at once; re-verifying a domain needs "
            "new DNS records (DKIM) and time, and its sending reputation settings are lost.",
            alternative="Check which applications send from it first; pause sending with a "
            "configuration set instead.",
            blocks=(
                "aws ses delete-identity --identity example.com",
                "aws sesv2 delete-email-identity --email-identity noreply@example.com",
            ),
            allows=(
                "aws sesv2 get-email-identity --email-identity example.com",
                "aws ses list-identities",
            ),
        ),
        Rule(
            "contact-list-delete",
            severity="high",
            pattern=_SES + r"delete-contact-list\b",
            reason="Deleting an SES contact list removes every contact and subscription in it",
            explanation="The contacts and their topic preferences are gone; unsubscribes "
            "recorded in the list are lost with them.",
            alternative="Export contacts first (sesv2 list-contacts) and keep the output.",
            blocks=(
                "aws sesv2 delete-contact-list --contact-list-name newsletter",
                "aws --region eu-west-1 sesv2 delete-contact-list --contact-list-name customers",
            ),
            allows=(
                "aws sesv2 list-contacts --contact-list-name newsletter",
                "aws sesv2 list-contact-lists",
            ),
        ),
        Rule(
            "sending-off",
            severity="medium",
            pattern=_SES + r"(?:update-account-sending-enabled\s(?:.*\s)?--no-enabled"
            r"|put-account-sending-attributes"
            r"\s(?:.*\s)?--no-sending-enabled)\b",
            reason="Turning off sending for the whole SES account",
            explanation="Every application using SES in the region stops sending mail, "
            "including password resets and alerts.",
            alternative="Pause a single configuration set (put-configuration-set-sending-options).",
            blocks=(
                "aws ses update-account-sending-enabled --no-enabled",
                "aws sesv2 put-account-sending-attributes --no-sending-enabled",
            ),
            allows=("aws ses update-account-sending-enabled --enabled", "aws sesv2 get-account"),
        ),
        Rule(
            "config-delete",
            severity="medium",
            pattern=_SES
            + r"(?:delete-configuration-set(?:-event-destination)?|delete-receipt-rule(?:-set)?"
            r"|delete-(?:email-)?template|delete-custom-verification-email-template"
            r"|delete-dedicated-ip-pool|delete-contact)\b",
            reason="Deleting SES configuration sets, receipt rules, templates or contacts",
            explanation="Mail sent with a deleted configuration set or template fails; deleted "
            "receipt rules stop processing incoming mail; event destinations stop reporting "
            "bounces and complaints.",
            alternative="Describe the object first and keep its definition.",
            blocks=(
                "aws ses delete-receipt-rule-set --rule-set-name inbound",
                "aws sesv2 delete-email-template --template-name welcome",
            ),
            allows=(
                "aws sesv2 get-email-template --template-name welcome",
                "aws ses describe-receipt-rule-set --rule-set-name inbound",
            ),
        ),
    ),
)
