"""Prometheus, Alertmanager and Thanos: deleting series and blocks, shutting down, silencing."""

from dcg.model import Pack, Rule
from dcg.packs._http import ANY, END

PACK = Pack(
    "monitoring.prometheus",
    description="Prometheus TSDB admin API, Alertmanager silences, Thanos block deletion",
    rules=(
        Rule(
            "delete-series",
            severity="high",
            pattern=ANY + r"/api/v1/admin/tsdb/delete_series(?:[?\s]|$)",
            reason="The TSDB admin API deletes the matching time series data",
            explanation="delete_series removes every sample of the series matched by match[] "
            '(optionally within start/end); a broad matcher such as {__name__=~".+"} empties '
            "the database. The data is gone once tombstones are cleaned or compacted.",
            alternative="Query the matcher first (/api/v1/series?match[]=…) and take a TSDB "
            "snapshot (/api/v1/admin/tsdb/snapshot).",
            blocks=(
                "curl -X POST -g "
                "'http://localhost:9090/api/v1/admin/tsdb/delete_series?match[]=up'",
                "curl -XPOST http://prom:9090/api/v1/admin/tsdb/delete_series",
            ),
            allows=(
                "curl -g 'http://localhost:9090/api/v1/series?match[]=up'",
                "curl -X POST http://localhost:9090/api/v1/admin/tsdb/snapshot",
            ),
        ),
        Rule(
            "clean-tombstones",
            severity="medium",
            pattern=ANY + r"/api/v1/admin/tsdb/clean_tombstones" + END,
            reason="clean_tombstones makes earlier series deletions permanent",
            explanation="Deleted series are only marked until tombstones are cleaned; after "
            "this call the data is removed from disk.",
            alternative="Check the deletions were intended before cleaning; snapshot first.",
            blocks=(
                "curl -X POST http://localhost:9090/api/v1/admin/tsdb/clean_tombstones",
                "curl -XPUT prom:9090/api/v1/admin/tsdb/clean_tombstones",
            ),
            allows=(
                "curl http://localhost:9090/api/v1/status/tsdb",
                "curl -X POST http://localhost:9090/api/v1/admin/tsdb/snapshot",
            ),
        ),
        Rule(
            "quit",
            severity="medium",
            pattern=ANY + r"/-/quit" + END,
            reason="POST /-/quit shuts Prometheus or Alertmanager down",
            explanation="Scraping, rule evaluation and alerting stop until the process is "
            "restarted; a supervisor may not restart a clean exit.",
            alternative="Use /-/reload to apply configuration changes.",
            blocks=(
                "curl -X POST http://localhost:9090/-/quit",
                "curl -XPOST http://alertmanager:9093/-/quit",
            ),
            allows=(
                "curl -X POST http://localhost:9090/-/reload",
                "curl http://localhost:9090/-/healthy",
            ),
        ),
        Rule(
            "silence",
            severity="medium",
            pattern=r"^amtool\s(?:-[^\s]*\s(?:[^\s-][^\s]*\s)?)*silence\s(?:add|import)\b",
            reason="amtool silence add suppresses matching alerts",
            explanation="Notifications for every alert the matchers select are dropped until "
            "the silence expires; a broad matcher hides real incidents.",
            alternative="Use narrow matchers and a short --duration, with a --comment.",
            blocks=(
                "amtool silence add alertname=~'.+' --duration 24h",
                "amtool silence import < silences.json",
            ),
            allows=("amtool silence query", "amtool alert query"),
        ),
        Rule(
            "thanos-delete-blocks",
            severity="high",
            pattern=r"^thanos\stools\sbucket\s(?:retention|cleanup|mark\s(?:.*\s)?--marker[=\s]deletion-mark\.json)\b",
            reason="Thanos bucket tools delete or mark metric blocks for deletion",
            explanation="retention and cleanup delete blocks from object storage; a deletion "
            "mark makes the compactor delete the block. Long-term metrics in those blocks "
            "are lost.",
            alternative="Inspect blocks first (thanos tools bucket inspect) and test against "
            "a copy of the bucket.",
            blocks=(
                "thanos tools bucket retention --objstore.config-file=b.yml "
                "--retention.resolution-raw=1d",
                "thanos tools bucket mark --id 01H --marker=deletion-mark.json "
                "--objstore.config-file b.yml",
            ),
            allows=(
                "thanos tools bucket inspect --objstore.config-file=b.yml",
                "thanos tools bucket mark --id 01H --marker=no-compact-mark.json "
                "--objstore.config-file b.yml",
            ),
        ),
    ),
)
