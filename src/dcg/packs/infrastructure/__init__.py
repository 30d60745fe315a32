"""Infrastructure-as-code packs: Terraform/OpenTofu, Pulumi and Ansible."""
