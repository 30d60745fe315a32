"""LaunchDarkly: deleting projects, environments, flags and segments; toggling flags."""

from dcg.model import Pack, Rule
from dcg.packs._http import SEG, sends

_LD = r"^ldcli\s(?:-[^\s]*\s(?:[^\s-][^\s]*\s)?)*"
_API = sends("DELETE") + r"launchdarkly\.(?:com|us)/api/v2/"

PACK = Pack(
    "featureflags.launchdarkly",
    description="LaunchDarkly (ldcli and REST API): project, environment, flag, segment deletion",
    rules=(
        Rule(
            "project-delete",
            severity="critical",
            pattern=r"(?:"
            + _LD
            + r"projects\sdelete\b|"
            + _API
            + r"projects/"
            + SEG
            + r"/?(?:[?\s]|$))",
            reason="Deleting a LaunchDarkly project removes all its environments and flags",
            explanation="Every flag, segment, environment and SDK key of the project goes; "
            "SDKs using those keys fall back to default values in every application.",
            alternative="Export the flags first and remove access instead of deleting.",
            blocks=(
                "ldcli projects delete --project mobile-app",
                "curl -X DELETE https://app.launchdarkly.com/api/v2/projects/mobile-app -H "
                "'Authorization: k'",
            ),
            allows=(
                "ldcli projects list",
                "curl https://app.launchdarkly.com/api/v2/projects/mobile-app",
            ),
        ),
        Rule(
            "environment-delete",
            severity="high",
            pattern=r"(?:"
            + _LD
            + r"environments\sdelete\b|"
            + _API
            + r"projects/"
            + SEG
            + r"/environments/"
            + SEG
            + ")",
            reason="Deleting a LaunchDarkly environment and its flag targeting",
            explanation="The environment's SDK keys stop working and all targeting rules in "
            "it are lost; applications using it serve fallback values.",
            alternative="Copy the environment's flag settings before deleting it.",
            blocks=(
                "ldcli environments delete --project web --environment staging",
                "curl -X DELETE "
                "https://app.launchdarkly.com/api/v2/projects/web/environments/staging",
            ),
            allows=(
                "ldcli environments get --project web --environment staging",
                "curl https://app.launchdarkly.com/api/v2/projects/web/environments/staging",
            ),
        ),
        Rule(
            "flag-delete",
            severity="high",
            pattern=r"(?:"
            + _LD
            + r"(?:flags|segments)\sdelete\b|"
            + _API
            + r"(?:flags|segments)/"
            + SEG
            + "/"
            + SEG
            + ")",
            reason="Deleting a LaunchDarkly flag or segment in every environment",
            explanation="Code that still evaluates the flag gets its fallback value in all "
            "environments; its targeting and history are gone.",
            alternative="Archive the flag instead (ldcli flags update with archived=true) and "
            "delete it only after its code references are removed.",
            blocks=(
                "ldcli flags delete --project web --flag new-checkout",
                "curl -X DELETE https://app.launchdarkly.com/api/v2/flags/web/new-checkout",
            ),
            allows=(
                "ldcli flags get --project web --flag new-checkout",
                "curl https://app.launchdarkly.com/api/v2/flags/web/new-checkout",
            ),
        ),
        Rule(
            "flag-toggle",
            severity="medium",
            pattern=_LD + r"flags\s(?:toggle-off|toggle-on|toggle)\b",
            reason="Toggling a LaunchDarkly flag changes behaviour for all users at once",
            explanation="Turning a flag on or off in an environment takes effect within "
            "seconds for every user the environment serves.",
            alternative="Use a percentage rollout or target a test segment first.",
            blocks=(
                "ldcli flags toggle-off --project web --flag new-checkout --environment production",
                "ldcli flags toggle-on --project web --flag kill-switch --environment production",
            ),
            allows=(
                "ldcli flags list --project web",
                "ldcli flags get --project web --flag new-checkout",
            ),
        ),
    ),
)
