"""dcg's state files: sessions, history, codes and allowlists (see each module)."""
