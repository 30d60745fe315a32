"""OpenSearch: deleting indices, data streams, snapshots and documents over the REST API."""

from dcg.model import Pack, Rule
from dcg.packs._http import ANY, HOST_REST, sends
from dcg.packs.search._es import ALL_INDICES, API_PATHS, BY_QUERY, HARMLESS, INDEX, SNAPSHOT

# A host that is recognisably OpenSearch: port 9200, a name with "opensearch", or an
# Amazon OpenSearch Service domain (*.es.amazonaws.com, *.aoss.amazonaws.com).
_AT = r"(?::9200|(?:opensearch|\.es\.amazonaws\.com|\.aoss\.)" + HOST_REST + ")"
_DELETE = sends("DELETE")
_PLUGINS = r"/_(?:plugins|opendistro)/"

PACK = Pack(
    "search.opensearch",
    description="OpenSearch: DELETE of indices, data streams and snapshots, delete-by-query",
    rules=(
        Rule(
            "delete-all-indices",
            severity="critical",
            pattern=_DELETE + r"(?:" + _AT + ALL_INDICES + r"|/_all(?:[/?#\s]|$))",
            reason="DELETE of _all or a wildcard index pattern removes every matching index",
            explanation="With `_all`, `*` or a pattern like `logs-*`, one request deletes every "
            "index it matches, including the `.kibana`/`.opensearch-dashboards` and security "
            "indices. Nothing is kept; only a snapshot restore brings the data back.",
            alternative="Resolve the pattern first (GET _cat/indices/<pattern>), snapshot, then "
            "delete indices by exact name, or let an ISM policy delete old indices.",
            blocks=(
                "curl -X DELETE 'https://opensearch.local:9200/_all'",
                "curl -XDELETE https://search-logs.eu-west-1.es.amazonaws.com/logs-*",
            ),
            allows=(
                "curl -X GET 'https://opensearch.local:9200/_cat/indices/logs-*'",
                "curl -X DELETE 'https://opensearch.local:9200/logs-2024'",
            ),
        ),
        Rule(
            "delete-index",
            severity="high",
            pattern=_DELETE + r"(?:" + _AT + INDEX + r"|/_data_stream/[^\s/?#]+)",
            reason="DELETE of an index or data stream removes all of its documents",
            explanation="Deleting an index drops every document, mapping and setting in it; "
            "deleting a data stream deletes all its backing indices. There is no trash; "
            "recovery needs a snapshot.",
            alternative="Take a snapshot first, or close the index (POST <index>/_close) and "
            "delete it later; prefer an Index State Management policy for retention.",
            blocks=(
                "curl -X DELETE 'https://opensearch.local:9200/sample-index'",
                "curl -X DELETE 'https://opensearch.local:9200/_data_stream/logs-app'",
                "curl --request DELETE https://opensearch-node1:9200/orders?pretty",
            ),
            allows=(
                "curl -X GET 'https://opensearch.local:9200/sample-index/_mapping'",
                "curl -X PUT 'https://opensearch.local:9200/sample-index'",
            ),
        ),
        Rule(
            "delete-snapshot",
            severity="high",
            pattern=_DELETE + SNAPSHOT,
            reason="DELETE of a snapshot removes a backup of the cluster",
            explanation="A snapshot is what deleted indices are restored from. Once deleted, "
            "data that only it held cannot be recovered.",
            alternative="Expire snapshots with a snapshot management policy, or verify a newer "
            "snapshot exists (GET _snapshot/<repo>/_all) first.",
            blocks=(
                "curl -X DELETE 'https://opensearch.local:9200/_snapshot/backup_repo/snap_01'",
                "curl -XDELETE https://admin:pw@os.local/_snapshot/s3-repo/weekly-3",
            ),
            allows=(
                "curl -X GET 'https://opensearch.local:9200/_snapshot/backup_repo/_all'",
                "curl -X PUT 'https://opensearch.local:9200/_snapshot/backup_repo/snap_02'",
            ),
        ),
        Rule(
            "delete-by-query",
            severity="high",
            pattern=ANY + BY_QUERY,
            reason="_delete_by_query deletes every document that matches the query",
            explanation="The query is in the request body and invisible in the command; a "
            "`match_all` or a wrong range empties the index, with no undo.",
            alternative="Run the query against _count first and snapshot the index.",
            blocks=(
                "curl -X POST 'https://opensearch.local:9200/logs-2024/_delete_by_query'",
                "http POST https://opensearch.local:9200/logs-*/_delete_by_query",
            ),
            allows=(
                "curl -X POST 'https://opensearch.local:9200/logs-2024/_search'",
                "curl -X POST 'https://opensearch.local:9200/logs-2024/_count'",
            ),
        ),
        Rule(
            "delete-resource",
            severity="medium",
            pattern=_DELETE
            + r"(?:"
            + _AT
            + "/"
            + HARMLESS
            + r"[^\s]|(?:"
            + API_PATHS
            + "|"
            + _PLUGINS
            + "))",
            reason="DELETE request to OpenSearch (documents, aliases, templates, ISM/security)",
            explanation="Other DELETE requests remove documents, aliases, templates, pipelines, "
            "ISM policies, security users, roles and role mappings. They can only be recreated "
            "from their definitions.",
            alternative="GET the object first and keep its definition.",
            blocks=(
                "curl -X DELETE 'https://opensearch.local:9200/logs-2024/_doc/1'",
                "curl -XDELETE https://search.internal/_plugins/_security/api/internalusers/bob",
            ),
            allows=(
                "curl -X GET 'https://search.internal/_plugins/_security/api/internalusers'",
                "curl -X DELETE 'https://opensearch.local:9200/_search/scroll'",
            ),
        ),
    ),
)
