"""Datadog: deleting monitors, dashboards, downtimes and other objects via dog or the API."""

from dcg.model import Pack, Rule
from dcg.packs._http import ANY, sends

# API hosts: api.datadoghq.com/.eu, api.us3/us5/ap1.datadoghq.com, api.ddog-gov.com.
_API = r"(?:datadoghq|ddog-gov)\.[a-z]+/api/"
_DOG = r"^dog\s(?:-[^\s]*\s(?:[^\s-][^\s]*\s)?)*"

PACK = Pack(
    "monitoring.datadog",
    description="Datadog: monitor, dashboard, downtime, SLO and key deletion; muting everything",
    rules=(
        Rule(
            "api-delete",
            severity="high",
            pattern=r"(?:"
            + sends("DELETE")
            + _API
            + "|"
            + _DOG
            + r"(?:monitor|dashboard|dashboard_list|timeboard|screenboard|downtime|service_check"
            r"|tag|host)\s(?:delete|detach)\b)",
            reason="Deleting Datadog monitors, dashboards, SLOs, keys or other objects",
            explanation="A deleted monitor stops alerting and its history of state changes "
            "goes with it; dashboards, SLOs, synthetic tests and API keys are removed for "
            "everyone in the organisation. Most deleted objects cannot be restored.",
            alternative="Export the object's JSON first (GET the same endpoint), or mute a "
            "monitor for a bounded time instead of deleting it.",
            blocks=(
                "curl -X DELETE https://api.datadoghq.com/api/v1/monitor/12345 -H 'DD-API-KEY: k'",
                "dog monitor delete 12345",
                "curl -X DELETE 'https://api.datadoghq.eu/api/v1/dashboard/abc-def-ghi'",
            ),
            allows=(
                "curl -X GET https://api.datadoghq.com/api/v1/monitor/12345",
                "dog monitor show 12345",
            ),
        ),
        Rule(
            "mute-all",
            severity="medium",
            pattern=r"(?:"
            + _DOG
            + r"monitor\smute_all\b|"
            + ANY
            + _API
            + r"v1/monitor/mute_all\b)",
            reason="Muting all Datadog monitors silences every alert",
            explanation="While everything is muted no monitor notifies anyone, so real "
            "incidents go unnoticed until someone unmutes.",
            alternative="Schedule a downtime scoped to the hosts or services under "
            "maintenance, with an end time.",
            blocks=(
                "dog monitor mute_all",
                "curl -X POST https://api.datadoghq.com/api/v1/monitor/mute_all",
            ),
            allows=("dog monitor unmute_all", "dog monitor show_all"),
        ),
    ),
)
