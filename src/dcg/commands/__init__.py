"""Subcommands of the dcg CLI, one module each, imported on demand by dcg.cli."""
