"""Database packs: PostgreSQL, MySQL, SQLite, MongoDB and Redis."""
