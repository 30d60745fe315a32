"""Meilisearch: deleting indexes, documents, settings and API keys over the HTTP API."""

from dcg.model import Pack, Rule
from dcg.packs._http import ANY, END, SEG, sends

# Meilisearch routes: `/indexes/<uid>/…`, `/keys/<key>` (Algolia uses `/1/indexes/`).
_DELETE = sends("DELETE") + "/"
_ANY = ANY + "/"
_INDEX = r"indexes/" + SEG

PACK = Pack(
    "search.meilisearch",
    description="Meilisearch: DELETE of indexes, documents, settings and keys",
    rules=(
        Rule(
            "delete-index",
            severity="high",
            pattern=_DELETE + _INDEX + END,
            reason="DELETE /indexes/<uid> removes the index with all its documents",
            explanation="Deleting a Meilisearch index drops its documents, settings, synonyms "
            "and stop words at once. The engine keeps no copy; only a dump or snapshot taken "
            "earlier can restore it.",
            alternative="Create a dump first (POST /dumps), or swap a new index in with "
            "POST /swap-indexes instead of deleting the old one.",
            blocks=(
                "curl -X DELETE 'http://localhost:7700/indexes/movies'",
                "curl -H 'Authorization: Bearer KEY' -X DELETE "
                "https://ms.example.com/indexes/products/",
            ),
            allows=(
                "curl -X GET 'http://localhost:7700/indexes/movies'",
                "curl -X DELETE 'http://localhost:7700/indexes/movies/documents/1'",
            ),
        ),
        Rule(
            "delete-all-documents",
            severity="high",
            pattern=r"(?:"
            + _DELETE
            + _INDEX
            + r"/documents"
            + END
            + "|"
            + _ANY
            + _INDEX
            + r"/documents/delete"
            + END
            + ")",
            reason="Deleting an index's documents in bulk (all, or by filter)",
            explanation="DELETE /indexes/<uid>/documents removes every document; POST "
            "/indexes/<uid>/documents/delete removes all documents matching a filter sent in "
            "the body. The index stays, empty or thinned, and nothing can be undone.",
            alternative="Count the filter's matches with a search first and create a dump.",
            blocks=(
                "curl -X DELETE 'http://localhost:7700/indexes/movies/documents'",
                "curl -X POST http://localhost:7700/indexes/movies/documents/delete",
            ),
            allows=(
                "curl -X GET 'http://localhost:7700/indexes/movies/documents'",
                "curl -X POST 'http://localhost:7700/indexes/movies/documents'",
            ),
        ),
        Rule(
            "delete-documents",
            severity="medium",
            pattern=r"(?:"
            + _DELETE
            + _INDEX
            + r"/documents/"
            + SEG
            + END
            + "|"
            + _ANY
            + _INDEX
            + r"/documents/delete-batch"
            + END
            + ")",
            reason="Deleting documents from a Meilisearch index by id",
            explanation="Removes one document (DELETE /documents/<id>) or a list of ids "
            "(POST /documents/delete-batch). The documents must be re-indexed from their "
            "source to come back.",
            alternative="Make sure the source of truth still has the documents, or dump first.",
            blocks=(
                "curl -X DELETE 'http://localhost:7700/indexes/movies/documents/25684'",
                "curl -X POST 'http://localhost:7700/indexes/movies/documents/delete-batch'",
            ),
            allows=(
                "curl -X GET 'http://localhost:7700/indexes/movies/documents/25684'",
                "curl -X PUT 'http://localhost:7700/indexes/movies/documents'",
            ),
        ),
        Rule(
            "reset-settings",
            severity="medium",
            pattern=_DELETE + _INDEX + r"/settings(?:/" + SEG + ")?" + END,
            reason="DELETE /indexes/<uid>/settings resets ranking, filters and synonyms",
            explanation="Resetting settings returns ranking rules, searchable and filterable "
            "attributes, synonyms and stop words to their defaults and re-indexes. Search "
            "behaviour changes at once and the old settings must be re-applied by hand.",
            alternative="GET /indexes/<uid>/settings and save the JSON before resetting.",
            blocks=(
                "curl -X DELETE 'http://localhost:7700/indexes/movies/settings'",
                "curl -X DELETE http://localhost:7700/indexes/movies/settings/synonyms",
            ),
            allows=(
                "curl -X GET 'http://localhost:7700/indexes/movies/settings'",
                "curl -X PATCH 'http://localhost:7700/indexes/movies/settings'",
            ),
        ),
        Rule(
            "delete-key",
            severity="medium",
            pattern=_DELETE + r"keys/" + SEG + END,
            reason="DELETE /keys/<key> revokes an API key that clients use",
            explanation="Every application using the key loses access immediately; a deleted "
            "key cannot be restored, only replaced by a new key that clients must be given.",
            alternative="Create the replacement key and roll it out before deleting the old one.",
            blocks=(
                "curl -X DELETE 'http://localhost:7700/keys/6062abda-a5aa-4414-ac91-ecd7944c0f8d'",
                "http DELETE localhost:7700/keys/search-key",
            ),
            allows=(
                "curl -X GET 'http://localhost:7700/keys'",
                "curl -X POST 'http://localhost:7700/keys'",
            ),
        ),
    ),
)
