"""Postmark: deleting servers, domains, sender signatures, templates and streams."""

from dcg.model import Pack, Rule
from dcg.packs._http import ANY, END, SEG, sends

_API = r"api\.postmarkapp\.com/"

PACK = Pack(
    "email.postmark",
    description="Postmark API and CLI: server, domain, sender, template and stream removal",
    rules=(
        Rule(
            "server-delete",
            severity="high",
            pattern=sends("DELETE") + _API + r"(?:servers|domains|senders)/" + SEG + END,
            reason="Deleting a Postmark server, domain or sender signature",
            explanation="A server holds its message streams, templates, API tokens and "
            "history; deleting it stops all mail that used its token. Deleting a domain or "
            "sender stops mail from those addresses.",
            alternative="Pause the server's streams or remove its tokens from applications first.",
            blocks=(
                "curl -X DELETE https://api.postmarkapp.com/servers/12345 -H "
                "'X-Postmark-Account-Token: t'",
                "curl -X DELETE https://api.postmarkapp.com/domains/36735",
            ),
            allows=(
                "curl https://api.postmarkapp.com/servers/12345 -H 'X-Postmark-Account-Token: t'",
                "curl https://api.postmarkapp.com/domains?count=50&offset=0",
            ),
        ),
        Rule(
            "api-delete",
            severity="medium",
            pattern=r"(?:"
            + sends("DELETE")
            + _API
            + "|"
            + ANY
            + _API
            + r"message-streams/"
            + SEG
            + r"/archive"
            + END
            + ")",
            reason="Deleting Postmark templates, webhooks or suppressions; archiving a stream",
            explanation="Sends that reference a deleted template fail; an archived message "
            "stream rejects mail; removed suppressions let mail go to addresses that "
            "bounced or complained.",
            alternative="GET the object first and keep its JSON.",
            blocks=(
                "curl -X DELETE https://api.postmarkapp.com/templates/1234",
                "curl -X POST https://api.postmarkapp.com/message-streams/broadcast/archive",
            ),
            allows=(
                "curl https://api.postmarkapp.com/templates/1234",
                "curl -X POST https://api.postmarkapp.com/email",
            ),
        ),
        Rule(
            "templates-push",
            severity="medium",
            pattern=r"^postmark\stemplates\spush\b",
            reason="postmark templates push overwrites the server's templates",
            explanation="Templates on the server are replaced by the local files; edits made "
            "in the web editor are lost.",
            alternative="Pull the current templates first (postmark templates pull dir).",
            blocks=(
                "postmark templates push ./templates",
                "postmark templates push ./templates --force",
            ),
            allows=("postmark templates pull ./templates", "postmark servers list"),
        ),
    ),
)
