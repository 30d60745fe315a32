"""New Relic: deleting entities, alert policies, dashboards and keys via the CLI or APIs."""

from dcg.model import Pack, Rule
from dcg.packs._http import sends

_NR = r"^newrelic\s(?:-[^\s]*\s(?:[^\s-][^\s]*\s)?)*"

PACK = Pack(
    "monitoring.newrelic",
    description="New Relic: CLI and REST deletions, NerdGraph delete mutations",
    rules=(
        Rule(
            "delete",
            severity="high",
            pattern=r"(?:"
            + _NR
            + r"(?:workload|apm\sdeployment|entity\stags|synthetics\smonitor|dashboard)\s"
            r"(?:delete|delete-values)\b|" + sends("DELETE") + r"api\.(?:eu\.)?newrelic\.com/)",
            reason="Deleting New Relic workloads, alert policies, applications or tags",
            explanation="Alert policies and conditions stop evaluating, dashboards and "
            "workloads disappear for everyone, and deleted applications lose their "
            "configuration; none of them can be restored.",
            alternative="Export the object with a NerdGraph query or GET first, and disable "
            "alert policies instead of deleting them.",
            blocks=(
                "newrelic workload delete --guid MXxBUE18V09SS0xPQUR8MTIz",
                "curl -X DELETE https://api.newrelic.com/v2/alerts_policies/123.json -H "
                "'Api-Key: k'",
            ),
            allows=(
                "newrelic workload get --guid MXxBUE18V09SS0xPQUR8MTIz",
                "curl https://api.newrelic.com/v2/alerts_policies.json -H 'Api-Key: k'",
            ),
        ),
        Rule(
            "nerdgraph-delete",
            severity="high",
            pattern=_NR + r"nerdgraph\squery\s(?=.*mutation).*[a-z](?:Delete|Purge)",
            reason="A NerdGraph mutation that deletes (alertsPolicyDelete, dashboardDelete, …)",
            explanation="Delete mutations remove alert policies, conditions, dashboards, "
            "synthetic monitors, keys or entities across the account; they cannot be undone.",
            alternative="Query the object first and keep the result.",
            blocks=(
                "newrelic nerdgraph query 'mutation { alertsPolicyDelete(accountId: 1, id: 2) "
                "{ id } }'",
                "newrelic nerdgraph query 'mutation { dashboardDelete(guid: \"x\") { status } }'",
            ),
            allows=(
                "newrelic nerdgraph query '{ actor { user { name } } }'",
                "newrelic nerdgraph query 'mutation { alertsPolicyCreate(accountId: 1) { id } }'",
            ),
        ),
    ),
)
