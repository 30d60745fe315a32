"""Kubernetes packs: kubectl, Helm and Kustomize."""
