"""Object storage packs: S3, Google Cloud Storage, MinIO and Azure Blob Storage."""
