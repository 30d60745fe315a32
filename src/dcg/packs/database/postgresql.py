"""PostgreSQL: dropping databases, tables and rows through psql, dropdb and pg_restore."""

from dcg.checks import outside_sql_strings
from dcg.model import Pack, Rule

# SQL statements; each is matched again with string literals blanked (checks.py).
_DROP_DATABASE = r"(?i)^psql\s(?:.*\s)?drop\s+database\s"
_DROP_OBJECT = (
    r"(?i)^psql\s(?:.*\s)?drop\s+(?:table|schema|view|materialized\s+view|index|"
    r"sequence|function|procedure|extension|type|role|user|owned)\s"
)
_TRUNCATE = r"(?i)^psql\s(?:.*\s)?truncate\s"
_DELETE_WITHOUT_WHERE = r"(?i)^psql\s(?!.*\swhere\s)(?:.*\s)?(?:delete\s+from|update\s+\S+\s+set)\s"

PACK = Pack(
    "database.postgresql",
    description="PostgreSQL: dropdb/dropuser, pg_restore --clean, and DROP, TRUNCATE, DELETE "
    "or UPDATE without WHERE sent through psql",
    safe=(r"^(?:psql|dropdb|dropuser|pg_restore)\s(?:--help|--version|-V|-\?)$",),
    rules=(
        Rule(
            "dropdb",
            severity="critical",
            pattern=r"^dropdb\s",
            keywords=("dropdb",),
            reason="dropdb deletes a whole database",
            explanation="dropdb runs DROP DATABASE: every table, row, function and permission "
            "in the database is removed at once and PostgreSQL keeps no copy. Only a backup "
            "or a point-in-time recovery setup can bring it back.",
            alternative="pg_dump the database first (pg_dump -Fc db > db.dump) and check the "
            "target with psql -l.",
            blocks=("dropdb prod", "sudo -u postgres dropdb --if-exists app_staging"),
            allows=("pg_dump prod > prod.sql", "createdb app", "dropdb --help"),
        ),
        Rule(
            "drop-database",
            severity="critical",
            pattern=_DROP_DATABASE,
            check=outside_sql_strings(_DROP_DATABASE),
            keywords=("psql",),
            reason="DROP DATABASE deletes a whole database",
            explanation="The statement removes the database with all its schemas, tables and "
            "data. It cannot be rolled back and runs outside any transaction.",
            alternative="Dump the database with pg_dump first, or rename it (ALTER DATABASE … "
            "RENAME TO …) and drop it later.",
            blocks=(
                "psql -c 'DROP DATABASE production'",
                "psql -U postgres -h db1 -c 'drop database if exists app'",
            ),
            allows=("psql -l", "psql -c 'CREATE DATABASE app'"),
        ),
        Rule(
            "drop-object",
            severity="high",
            pattern=_DROP_OBJECT,
            check=outside_sql_strings(_DROP_OBJECT),
            keywords=("psql",),
            reason="DROP removes a table, schema or other object with its data",
            explanation="Dropping a table or schema deletes its rows immediately (and with "
            "CASCADE, everything that depends on it). Outside an explicit transaction there "
            "is no undo.",
            alternative="pg_dump -t the table (or -n the schema) first, or rename it and drop "
            "it once nothing needs it.",
            blocks=(
                "psql -d app -c 'DROP TABLE users'",
                "psql app -c 'drop schema public cascade'",
            ),
            allows=(
                "psql -c \"COMMENT ON TABLE logs IS 'drop table logs after the audit'\"",
                "psql -d app -c 'SELECT count(*) FROM users'",
                "psql -d app -c '\\dt'",
            ),
        ),
        Rule(
            "truncate",
            severity="high",
            pattern=_TRUNCATE,
            check=outside_sql_strings(_TRUNCATE),
            keywords=("psql",),
            reason="TRUNCATE empties tables without logging individual rows",
            explanation="TRUNCATE removes all rows of the named tables (and with CASCADE, of "
            "tables referencing them) at once. Committed, the rows are only recoverable from "
            "a backup.",
            alternative="Copy the table first (CREATE TABLE x_bak AS TABLE x) or run it inside "
            "BEGIN … and check before COMMIT.",
            blocks=(
                "psql -c 'TRUNCATE orders'",
                "psql -d shop -c 'truncate table orders, order_items cascade'",
            ),
            allows=("psql -c 'SELECT * FROM orders LIMIT 10'", "pg_dump -t orders shop"),
        ),
        Rule(
            "delete-without-where",
            severity="high",
            pattern=_DELETE_WITHOUT_WHERE,
            check=outside_sql_strings(_DELETE_WITHOUT_WHERE),
            keywords=("psql",),
            reason="DELETE or UPDATE without WHERE changes every row of the table",
            explanation="Without a WHERE clause the statement applies to the whole table. "
            "Once committed, the previous contents are only recoverable from a backup.",
            alternative="Add a WHERE clause, check it with a SELECT first, and run the change "
            "inside BEGIN … COMMIT.",
            blocks=(
                "psql -c 'DELETE FROM users'",
                "psql -d app -c 'update accounts set balance = 0'",
            ),
            allows=(
                "psql -c 'DELETE FROM users WHERE id = 42'",
                "psql -c 'UPDATE accounts SET balance = 0 WHERE id = 7'",
            ),
        ),
        Rule(
            "pg-restore-clean",
            severity="high",
            pattern=r"^pg_restore\s(?:.*\s)?(?:--clean|-[aCelOsxvwW1]*c[a-zA-Z]*)(?:\s|$)",
            keywords=("pg_restore",),
            reason="pg_restore --clean drops existing objects before recreating them",
            explanation="With --clean (-c) pg_restore issues DROP for every object in the "
            "archive before restoring it into the target database. Restoring an old or wrong "
            "dump into the wrong database replaces live data with the dump's contents.",
            alternative="Restore into a new database (createdb; pg_restore -d new) and switch "
            "over once it is verified.",
            blocks=(
                "pg_restore --clean -d prod backup.dump",
                "pg_restore -c -d app app.dump",
                "pg_restore -d app -Fc --if-exists --clean app.dump",
            ),
            allows=(
                "pg_restore -d app_restore app.dump",
                "pg_restore -l app.dump",
                "pg_restore -Fc -d app_new app.dump",
            ),
        ),
        Rule(
            "dropuser",
            severity="medium",
            pattern=r"^dropuser\s",
            keywords=("dropuser",),
            reason="dropuser deletes a database role",
            explanation="The role and its login are removed; applications using it fail and "
            "its grants must be recreated by hand.",
            alternative="Disable the login instead (ALTER ROLE name NOLOGIN).",
            blocks=("dropuser app_rw", "sudo -u postgres dropuser --if-exists reporting"),
            allows=("createuser app_ro", "dropuser --help"),
        ),
    ),
)
