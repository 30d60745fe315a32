"""SQLite: destructive SQL and .restore passed to the sqlite3 shell."""

from dcg.checks import outside_sql_strings
from dcg.model import Pack, Rule

# SQL statements; each is matched again with string literals blanked (checks.py).
_DROP = r"(?i)^sqlite3?\s(?:.*\s)?drop\s+(?:table|view|index|trigger)\s"
_DELETE_WITHOUT_WHERE = (
    r"(?i)^sqlite3?\s(?!.*\swhere\s)(?:.*\s)?(?:delete\s+from|update\s+\S+\s+set)\s"
)

PACK = Pack(
    "database.sqlite",
    description="SQLite: DROP, DELETE or UPDATE without WHERE, and .restore through sqlite3",
    rules=(
        Rule(
            "drop",
            severity="high",
            pattern=_DROP,
            check=outside_sql_strings(_DROP),
            reason="DROP TABLE deletes a table and its rows from the database file",
            explanation="SQLite applies the statement to the file directly and, outside an "
            "explicit transaction, commits it at once; the only copy of the data is gone.",
            alternative="Copy the database file (or use .backup) before changing its schema.",
            blocks=("sqlite3 app.db 'DROP TABLE users'", "sqlite3 data.sqlite 'drop view v_sales'"),
            allows=("sqlite3 app.db '.tables'", "sqlite3 app.db '.backup app.bak'"),
        ),
        Rule(
            "delete-without-where",
            severity="high",
            pattern=_DELETE_WITHOUT_WHERE,
            check=outside_sql_strings(_DELETE_WITHOUT_WHERE),
            reason="DELETE or UPDATE without WHERE changes every row of the table",
            explanation="Without a WHERE clause every row is deleted or overwritten, and the "
            "sqlite3 shell commits each statement immediately.",
            alternative="Add a WHERE clause and check it with SELECT, or copy the database "
            "file first.",
            blocks=(
                "sqlite3 app.db 'DELETE FROM sessions'",
                "sqlite3 app.db 'update users set role=1'",
            ),
            allows=(
                "sqlite3 app.db 'DELETE FROM sessions WHERE expires < 0'",
                "sqlite3 app.db 'SELECT count(*) FROM sessions'",
            ),
        ),
        Rule(
            "restore",
            severity="high",
            pattern=r"^sqlite3?\s(?:.*\s)?\.restore\s",
            reason=".restore replaces the database contents with another file",
            explanation="The dot-command overwrites the open database with the contents of the "
            "given backup file; whatever was written since that backup is lost.",
            alternative="Restore into a new file and swap it in once verified.",
            blocks=(
                "sqlite3 app.db '.restore old.db'",
                "sqlite3 prod.sqlite '.restore main backup.db'",
            ),
            allows=("sqlite3 app.db '.backup new.db'", "sqlite3 app.db .dump > app.sql"),
        ),
    ),
)
