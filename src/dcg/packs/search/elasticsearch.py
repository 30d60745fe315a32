"""Elasticsearch: deleting indices, data streams, snapshots and documents over the REST API."""

from dcg.model import Pack, Rule
from dcg.packs._http import ANY, HOST_REST, sends
from dcg.packs.search._es import ALL_INDICES, API_PATHS, BY_QUERY, HARMLESS, INDEX, SNAPSHOT

# A host that is recognisably Elasticsearch: the default ports 9200/9243, a name with
# "elastic" (elastic-cloud.com, elasticsearch:9200) or an `es` label (es01, x.es.io).
_AT = r"(?::92\d\d|(?:elastic|\.es\.|//es)" + HOST_REST + ")"
_DELETE = sends("DELETE")

PACK = Pack(
    "search.elasticsearch",
    description="Elasticsearch: DELETE of indices, data streams and snapshots, delete-by-query",
    rules=(
        Rule(
            "delete-all-indices",
            severity="critical",
            pattern=_DELETE + r"(?:" + _AT + ALL_INDICES + r"|/_all(?:[/?#\s]|$))",
            reason="DELETE of _all or a wildcard index pattern removes every matching index",
            explanation="An index DELETE with `_all`, `*` or a pattern such as `logs-*` deletes "
            "every index it matches, including system indices like `.kibana`. The documents, "
            "mappings and settings are gone; only a snapshot can bring them back.",
            alternative="List what the pattern matches first (GET _cat/indices/<pattern>), take "
            "a snapshot, then delete the indices by their exact names.",
            blocks=(
                "curl -X DELETE 'http://localhost:9200/_all'",
                "curl -XDELETE http://es01:9200/logs-*",
                "curl -s -u elastic:pw --request DELETE https://c1.es.io:9243/.kibana*",
            ),
            allows=(
                "curl -X GET 'http://localhost:9200/_cat/indices/logs-*?v'",
                "curl -X DELETE 'http://localhost:9200/logs-2024'",
            ),
        ),
        Rule(
            "delete-index",
            severity="high",
            pattern=_DELETE + r"(?:" + _AT + INDEX + r"|/_data_stream/[^\s/?#]+)",
            reason="DELETE of an index or data stream removes all of its documents",
            explanation="Deleting an index drops its shards with every document, mapping and "
            "setting; deleting a data stream deletes all of its backing indices. Elasticsearch "
            "has no undo or trash; only a snapshot restore recovers the data.",
            alternative="Snapshot the index first (PUT _snapshot/<repo>/<snap>?wait_for_"
            "completion=true), or close it (POST <index>/_close) until you are sure.",
            blocks=(
                "curl -X DELETE 'http://localhost:9200/logs-2024'",
                "curl -X DELETE 'http://localhost:9200/_data_stream/logs-app'",
                "http DELETE :9200/orders",
                "wget --method=DELETE -qO- https://elastic.internal/users/",
            ),
            allows=(
                "curl -X GET 'http://localhost:9200/logs-2024/_mapping'",
                "curl -X PUT 'http://localhost:9200/logs-2025'",
                "curl -X DELETE 'https://api.example.com/users/42'",
            ),
        ),
        Rule(
            "delete-snapshot",
            severity="high",
            pattern=_DELETE + SNAPSHOT,
            reason="DELETE of a snapshot removes a backup of the cluster",
            explanation="Snapshots are the backups that index deletions are recovered from. "
            "Deleting one frees its segments in the repository; data only in that snapshot "
            "cannot be restored afterwards.",
            alternative="Let a snapshot lifecycle policy (SLM) expire snapshots by retention, "
            "or check GET _snapshot/<repo>/<snap> and keep a newer snapshot first.",
            blocks=(
                "curl -X DELETE 'http://localhost:9200/_snapshot/backup_repo/snap_01'",
                "curl -XDELETE localhost:9200/_snapshot/s3/nightly-*",
            ),
            allows=(
                "curl -X GET 'http://localhost:9200/_snapshot/backup_repo/_all'",
                "curl -X PUT 'http://localhost:9200/_snapshot/backup_repo/snap_02'",
            ),
        ),
        Rule(
            "delete-by-query",
            severity="high",
            pattern=ANY + BY_QUERY,
            reason="_delete_by_query deletes every document that matches the query",
            explanation="The query travels in the request body, so what it matches is not "
            "visible in the command: a `match_all` or a mistyped range empties the index. "
            "Deleted documents cannot be recovered except from a snapshot.",
            alternative="Run the same query against _count or _search first, and snapshot the "
            "index before deleting.",
            blocks=(
                "curl -X POST 'http://localhost:9200/logs-2024/_delete_by_query' -d '{}'",
                "curl -XPOST 'localhost:9200/logs-*/_delete_by_query?conflicts=proceed'",
            ),
            allows=(
                "curl -X POST 'http://localhost:9200/logs-2024/_count' -d '{}'",
                "curl -X POST 'http://localhost:9200/logs-2024/_search'",
            ),
        ),
        Rule(
            "delete-resource",
            severity="medium",
            pattern=_DELETE + r"(?:" + _AT + "/" + HARMLESS + r"[^\s]|" + API_PATHS + ")",
            reason="DELETE request to Elasticsearch (documents, aliases, templates, policies)",
            explanation="Other DELETE requests remove single documents, aliases, index templates, "
            "ingest pipelines, lifecycle policies, users or roles. They are recoverable only "
            "by recreating the object, which needs its definition.",
            alternative="GET the object first and keep its definition, so it can be recreated.",
            blocks=(
                "curl -X DELETE 'http://localhost:9200/logs-2024/_doc/1'",
                "curl -X DELETE 'https://search.internal/_index_template/logs'",
                "curl -XDELETE localhost:9200/_ilm/policy/hot-warm",
            ),
            allows=(
                "curl -X DELETE 'http://localhost:9200/_search/scroll'",
                "curl -X GET 'http://localhost:9200/_index_template/logs'",
            ),
        ),
    ),
)
