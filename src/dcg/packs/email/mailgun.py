"""Mailgun: deleting domains, mailing lists, routes, templates and suppressions via the API."""

from dcg.model import Pack, Rule
from dcg.packs._http import END, SEG, sends

_DELETE = sends("DELETE") + r"api\.(?:eu\.)?mailgun\.net/v[34]/"

PACK = Pack(
    "email.mailgun",
    description="Mailgun API: domain, mailing list, route, template and suppression deletion",
    rules=(
        Rule(
            "domain-delete",
            severity="high",
            pattern=_DELETE + r"domains/" + SEG + END,
            reason="Deleting a Mailgun sending domain",
            explanation="Sending and receiving for the domain stop; its DKIM keys, tracking "
            "settings, routes and logs go with it, and re-adding it needs new DNS records.",
            alternative="Disable sending for the domain in its settings instead.",
            blocks=(
                "curl -s --user 'api:key' -X DELETE "
                "https://api.mailgun.net/v3/domains/mg.example.com",
                "curl -X DELETE https://api.eu.mailgun.net/v4/domains/example.com",
            ),
            allows=(
                "curl -s --user 'api:key' https://api.mailgun.net/v3/domains/mg.example.com",
                "curl -X PUT https://api.mailgun.net/v3/domains/mg.example.com/verify",
            ),
        ),
        Rule(
            "list-delete",
            severity="high",
            pattern=_DELETE + r"lists/" + SEG + END,
            reason="Deleting a Mailgun mailing list with all of its members",
            explanation="The list address stops working and its members, with their "
            "subscription state, are deleted.",
            alternative="Download the members first (GET /v3/lists/<address>/members/pages).",
            blocks=(
                "curl --user 'api:key' -X DELETE "
                "https://api.mailgun.net/v3/lists/dev@mg.example.com",
                "curl -X DELETE https://api.mailgun.net/v3/lists/news@example.com/",
            ),
            allows=(
                "curl --user 'api:key' "
                "https://api.mailgun.net/v3/lists/dev@mg.example.com/members/pages",
                "curl -X DELETE https://api.mailgun.net/v3/lists/dev@mg.example.com/members/a@b.c",
            ),
        ),
        Rule(
            "api-delete",
            severity="medium",
            pattern=_DELETE,
            reason="Deleting Mailgun routes, templates, webhooks, members or suppressions",
            explanation="Routes stop forwarding inbound mail; deleted templates break sends "
            "that use them; clearing bounce or unsubscribe lists makes Mailgun send to "
            "addresses that refused mail.",
            alternative="GET the object or list first and keep it.",
            blocks=(
                "curl -X DELETE https://api.mailgun.net/v3/routes/4f3bad2335335426750048c6",
                "curl --user 'api:key' -X DELETE https://api.mailgun.net/v3/mg.example.com/bounces",
            ),
            allows=(
                "curl https://api.mailgun.net/v3/routes",
                "curl --user 'api:key' https://api.mailgun.net/v3/mg.example.com/bounces",
            ),
        ),
    ),
)
