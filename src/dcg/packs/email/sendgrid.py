"""Twilio SendGrid: deleting contacts, lists, templates, keys and suppressions via the v3 API."""

from dcg.model import Pack, Rule
from dcg.packs._http import sends

_API = r"api\.sendgrid\.com/v3/"
_DELETE = sends("DELETE") + _API

PACK = Pack(
    "email.sendgrid",
    description="SendGrid v3 API: contact, list, template, key and suppression deletion",
    rules=(
        Rule(
            "delete-all-contacts",
            severity="critical",
            pattern=_DELETE
            + r"marketing/(?:contacts|lists/[^\s/?]+)\?(?:[^\s]*&)?delete_(?:all_)?contacts=true",
            reason="Deleting every Marketing Campaigns contact (or all contacts of a list)",
            explanation="delete_all_contacts=true removes the whole contact database; a list "
            "deleted with delete_contacts=true takes its contacts with it. Contacts and their "
            "custom fields cannot be restored.",
            alternative="Export contacts first (POST /v3/marketing/contacts/exports) and delete "
            "by id.",
            blocks=(
                "curl -X DELETE "
                "'https://api.sendgrid.com/v3/marketing/contacts?delete_all_contacts=true'",
                "curl -X DELETE "
                "'https://api.sendgrid.com/v3/marketing/lists/abc?delete_contacts=true'",
            ),
            allows=(
                "curl -X POST https://api.sendgrid.com/v3/marketing/contacts/exports",
                "curl https://api.sendgrid.com/v3/marketing/contacts/count",
            ),
        ),
        Rule(
            "api-delete",
            severity="high",
            pattern=_DELETE,
            reason="Deleting SendGrid templates, API keys, senders, suppressions or contacts",
            explanation="Deleted templates and senders break the mail that uses them; a "
            "deleted API key stops every application using it; removing suppressions makes "
            "SendGrid mail addresses that bounced or unsubscribed, which hurts deliverability.",
            alternative="GET the object first and keep its JSON.",
            blocks=(
                "curl -X DELETE https://api.sendgrid.com/v3/templates/d-123",
                "curl --request DELETE --url https://api.sendgrid.com/v3/api_keys/KEY_ID",
            ),
            allows=(
                "curl https://api.sendgrid.com/v3/templates/d-123",
                "curl -X POST https://api.sendgrid.com/v3/mail/send",
            ),
        ),
    ),
)
