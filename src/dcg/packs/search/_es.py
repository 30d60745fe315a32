"""URL path fragments of the REST API shared by Elasticsearch and OpenSearch."""

from dcg.packs._http import END, SEG

# Every index: `_all`, or a first path segment with a wildcard (`*`, `logs-*,.kibana*`).
ALL_INDICES = r"/(?:_all|[^\s/?#*]*\*[^\s/?#]*)" + END

# One or more named indices (names never start with `_`), or a data stream.
INDEX = r"/(?:[^\s/?#_+-][^\s/?#]*|_data_stream/" + SEG + ")" + END

# A snapshot in a repository (`/_snapshot/repo/snap`).
SNAPSHOT = r"/_snapshot/" + SEG + "/" + SEG + END

# Delete-by-query on an index pattern, whatever the HTTP method.
BY_QUERY = r"/_delete_by_query" + END

# Requests that only release server-side search state.
HARMLESS = r"(?!_search/scroll|_pit\b|_async_search\b)"

# Paths that exist only in this API family, so the host need not be recognised.
API_PATHS = (
    r"/_(?:index_template|component_template|template|ilm|slm|security"
    r"|ingest|transform|ml|enrich|alias|aliases|doc|scripts|data_stream|snapshot)\b"
)
