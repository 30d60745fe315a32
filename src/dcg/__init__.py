"""dcg, the destructive command guard for AI coding agents."""

__version__ = "0.1.0"
