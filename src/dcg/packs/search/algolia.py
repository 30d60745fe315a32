"""Algolia: deleting or clearing indices, records, rules, synonyms and API keys."""

from dcg.model import Pack, Rule
from dcg.packs._http import ANY, END, HOST_REST, SEG, sends

# Algolia hosts: <APPID>(-dsn).algolia.net, <APPID>-N.algolianet.com, *.algolia.io.
_BASE = r"algolia" + HOST_REST + "/1/"
_INDEX = r"indexes/" + SEG
_DELETE = sends("DELETE") + _BASE
_ANY = ANY + _BASE
# The algolia CLI: `algolia indices delete products`, `algolia objects delete products …`.
_CLI = r"^algolia\s(?:-[^\s]*\s(?:[^\s-][^\s]*\s)?)*"

PACK = Pack(
    "search.algolia",
    description="Algolia: deleting or clearing indices, records, rules, synonyms and API keys",
    rules=(
        Rule(
            "delete-index",
            severity="high",
            pattern=r"(?:" + _DELETE + _INDEX + END + "|" + _CLI + r"indices\s(?:delete|rm)\b)",
            reason="Deleting an Algolia index removes its records, settings, rules and synonyms",
            explanation="An index deletion is immediate and Algolia keeps no backup of it; "
            "replicas lose their primary. Search on that index fails until it is rebuilt from "
            "the source data.",
            alternative="Copy the index first (algolia indices copy, or POST "
            "/1/indexes/<name>/operation with copy), or export it with algolia objects browse.",
            blocks=(
                "curl -X DELETE 'https://APPID-dsn.algolia.net/1/indexes/products'",
                "algolia indices delete products --confirm",
                "curl -XDELETE https://APPID.algolia.net/1/indexes/staging-users?x=1",
            ),
            allows=(
                "curl -X GET 'https://APPID-dsn.algolia.net/1/indexes/products'",
                "algolia indices list",
            ),
        ),
        Rule(
            "clear-index",
            severity="high",
            pattern=r"(?:"
            + _ANY
            + _INDEX
            + r"/(?:clear|deleteByQuery)"
            + END
            + "|"
            + _CLI
            + r"indices\sclear\b)",
            reason="Clearing an index, or deleting by query, removes its records",
            explanation="POST /1/indexes/<name>/clear empties the index but keeps its "
            "settings; deleteByQuery removes every record matching filters in the request "
            "body. The records are not recoverable from Algolia.",
            alternative="Browse and export the records first (algolia objects browse > "
            "backup.ndjson), and count what the filter matches with a search.",
            blocks=(
                "curl -X POST 'https://APPID-dsn.algolia.net/1/indexes/products/clear'",
                "curl -X POST https://APPID.algolia.net/1/indexes/logs/deleteByQuery -d '{}'",
                "algolia indices clear products -y",
            ),
            allows=(
                "curl -X POST 'https://APPID-dsn.algolia.net/1/indexes/products/query'",
                "algolia indices config export products",
            ),
        ),
        Rule(
            "delete-records",
            severity="medium",
            pattern=r"(?:"
            + _DELETE
            + _INDEX
            + "/"
            + r"(?!settings\b)[^\s?#]+"
            + "|"
            + _ANY
            + _INDEX
            + r"/(?:rules|synonyms)/clear"
            + END
            + "|"
            + _CLI
            + r"(?:objects|rules|synonyms)\s(?:delete|clear)\b)",
            reason="Deleting records, rules or synonyms from an Algolia index",
            explanation="Removes single records, query rules or synonyms, or clears all rules "
            "or synonyms of an index. They come back only from an export or from the source "
            "system that feeds the index.",
            alternative="Export them first (algolia rules browse, algolia synonyms browse, "
            "algolia objects browse).",
            blocks=(
                "curl -X DELETE 'https://APPID-dsn.algolia.net/1/indexes/products/sku-1'",
                "curl -X POST https://APPID.algolia.net/1/indexes/products/rules/clear",
                "algolia rules delete products --rule-ids r1",
            ),
            allows=(
                "algolia rules browse products",
                "curl -X GET 'https://APPID-dsn.algolia.net/1/indexes/products/sku-1'",
            ),
        ),
        Rule(
            "delete-key",
            severity="medium",
            pattern=r"(?:"
            + _DELETE
            + r"keys/"
            + SEG
            + END
            + "|"
            + _CLI
            + r"apikeys\s(?:delete|rm)\b)",
            reason="Deleting an Algolia API key cuts off every client that uses it",
            explanation="Front ends and back ends using the key start failing at once. A "
            "deleted key can be restored for a limited time only (POST /1/keys/<key>/restore).",
            alternative="Create and deploy the replacement key first, then delete the old one.",
            blocks=(
                "curl -X DELETE 'https://APPID.algolia.net/1/keys/abcdef'",
                "algolia apikeys delete abcdef --confirm",
            ),
            allows=(
                "curl -X GET 'https://APPID-dsn.algolia.net/1/keys/abcdef'",
                "algolia apikeys list",
            ),
        ),
    ),
)
