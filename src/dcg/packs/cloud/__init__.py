"""Cloud provider packs: AWS, Google Cloud and Azure CLIs."""
