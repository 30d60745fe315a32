"""PagerDuty: deleting services, schedules and escalation policies; disabling services."""

from dcg.model import Pack, Rule
from dcg.packs._http import sends

_API = r"api\.(?:eu\.)?pagerduty\.com/"

PACK = Pack(
    "monitoring.pagerduty",
    description="PagerDuty: REST API deletions, service disabling with the pd CLI",
    rules=(
        Rule(
            "api-delete",
            severity="high",
            pattern=sends("DELETE") + _API,
            reason="Deleting PagerDuty services, schedules, escalation policies or users",
            explanation="A deleted service stops creating incidents from its integrations; a "
            "deleted schedule or escalation policy means nobody is paged. Deleted objects "
            "and their history cannot be restored.",
            alternative="GET the object and keep its JSON; disable a service or remove it "
            "from escalation instead of deleting.",
            blocks=(
                "curl -X DELETE https://api.pagerduty.com/services/PABC123 -H 'Authorization: "
                "Token token=x'",
                "curl --request DELETE https://api.pagerduty.com/schedules/PSCHED1",
            ),
            allows=(
                "curl https://api.pagerduty.com/services/PABC123 -H 'Authorization: Token token=x'",
                "curl -X POST https://api.pagerduty.com/incidents",
            ),
        ),
        Rule(
            "service-disable",
            severity="medium",
            pattern=r"^pd\s(?:.*\s)?service\sdisable\b",
            reason="Disabling a PagerDuty service stops paging for it",
            explanation="Alerts sent to a disabled service create no incidents, so on-call "
            "is not notified of real problems until it is enabled again.",
            alternative="Use a maintenance window with a clear end time on only the affected "
            "services.",
            blocks=("pd service disable -n checkout", "pd service disable --ids PABC123"),
            allows=("pd service list", "pd service enable -n checkout"),
        ),
    ),
)
