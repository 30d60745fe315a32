"""Split (Harness FME): deleting feature flags, environments and segments; killing flags."""

from dcg.model import Pack, Rule
from dcg.packs._http import SEG, sends

_API = r"api\.split\.io/internal/api/v2/"
_DELETE = sends("DELETE") + _API

PACK = Pack(
    "featureflags.split",
    description="Split admin API: flag, environment and segment deletion, flag kills",
    rules=(
        Rule(
            "flag-delete",
            severity="high",
            pattern=_DELETE + r"splits/ws/" + SEG + "/" + SEG + r"/?(?:[?\s]|$)",
            reason="Deleting a Split feature flag from every environment",
            explanation="SDKs evaluating the flag get the control treatment everywhere; its "
            "definitions and targeting in all environments are removed.",
            alternative="Kill the flag in the affected environment, remove code references, "
            "then delete.",
            blocks=(
                "curl -X DELETE https://api.split.io/internal/api/v2/splits/ws/ws1/new_checkout",
                "curl --request DELETE https://api.split.io/internal/api/v2/splits/ws/ws1/beta_ui/",
            ),
            allows=(
                "curl https://api.split.io/internal/api/v2/splits/ws/ws1/new_checkout",
                "curl -X POST https://api.split.io/internal/api/v2/splits/ws/ws1/trafficTypes/user",
            ),
        ),
        Rule(
            "environment-delete",
            severity="high",
            pattern=_DELETE + r"environments/ws/" + SEG + "/" + SEG,
            reason="Deleting a Split environment",
            explanation="All flag definitions and SDK keys of the environment are removed; "
            "applications using those keys receive control treatments.",
            alternative="Make sure no SDK key of the environment is still deployed.",
            blocks=(
                "curl -X DELETE https://api.split.io/internal/api/v2/environments/ws/ws1/staging",
                "curl -XDELETE https://api.split.io/internal/api/v2/environments/ws/ws1/qa",
            ),
            allows=(
                "curl https://api.split.io/internal/api/v2/environments/ws/ws1",
                "curl -X POST https://api.split.io/internal/api/v2/environments/ws/ws1",
            ),
        ),
        Rule(
            "flag-change",
            severity="medium",
            pattern=r"(?:"
            + _DELETE
            + r"(?:splits/ws/"
            + SEG
            + "/"
            + SEG
            + r"/environments/|segments/|apiKeys/)|"
            + sends("PUT")
            + _API
            + r"splits/ws/[^\s]*/kill(?:[?\s]|$))",
            reason="Killing a Split flag or removing its definition, a segment or an API key",
            explanation="A killed flag serves its default treatment to everyone in that "
            "environment; removing a definition or segment changes targeting at once; a "
            "deleted API key stops the SDKs that use it.",
            alternative="Check the flag's definition first and keep it; restore with the "
            "same targeting if needed.",
            blocks=(
                "curl -X PUT "
                "https://api.split.io/internal/api/v2/splits/ws/ws1/new_checkout/environments/prod/kill",
                "curl -X DELETE "
                "https://api.split.io/internal/api/v2/splits/ws/ws1/new_checkout/environments/prod",
            ),
            allows=(
                "curl "
                "https://api.split.io/internal/api/v2/splits/ws/ws1/new_checkout/environments/prod",
                "curl -X PUT "
                "https://api.split.io/internal/api/v2/splits/ws/ws1/new_checkout/environments/prod/restore",
            ),
        ),
    ),
)
