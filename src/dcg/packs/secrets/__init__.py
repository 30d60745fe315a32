"""Secret stores: Vault, AWS Secrets Manager, 1Password and Doppler."""
