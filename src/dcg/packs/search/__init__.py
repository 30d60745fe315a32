"""Search engines: Elasticsearch, OpenSearch, Meilisearch and Algolia."""
