"""MySQL and MariaDB: dropping databases, tables and rows through mysql and mysqladmin."""

from dcg.checks import outside_sql_strings
from dcg.model import Pack, Rule

# SQL statements; each is matched again with string literals blanked (checks.py).
_DROP_DATABASE = r"(?i)^(?:mysql|mariadb)\s(?:.*\s)?drop\s+(?:database|schema)\s"
_DROP_TABLE = (
    r"(?i)^(?:mysql|mariadb)\s(?:.*\s)?drop\s+(?:table|view|user|trigger|"
    r"procedure|function|event)\s"
)
_TRUNCATE = r"(?i)^(?:mysql|mariadb)\s(?:.*\s)?truncate\s"
_DELETE_WITHOUT_WHERE = (
    r"(?i)^(?:mysql|mariadb)\s(?!.*\swhere\s)(?:.*\s)?"
    r"(?:delete\s+from|update\s+\S+\s+set)\s"
)

PACK = Pack(
    "database.mysql",
    description="MySQL/MariaDB: mysqladmin drop, and DROP, TRUNCATE, DELETE or UPDATE without "
    "WHERE sent through mysql -e",
    safe=(r"^(?:mysql|mariadb|mysqladmin)\s(?:--help|--version|-V|-\?)$",),
    rules=(
        Rule(
            "mysqladmin-drop",
            severity="critical",
            pattern=r"^(?:mysqladmin|mariadb-admin)\s(?:.*\s)?drop\s",
            reason="mysqladmin drop deletes a whole database",
            explanation="mysqladmin drop runs DROP DATABASE: every table in the schema and its "
            "files are removed. With -f it does not even ask. Only a backup brings it back.",
            alternative="Dump the database with mysqldump first and double-check the name and "
            "host.",
            blocks=("mysqladmin -u root -p drop shop", "mysqladmin -f drop staging"),
            allows=("mysqladmin status", "mysqladmin create shop"),
        ),
        Rule(
            "drop-database",
            severity="critical",
            pattern=_DROP_DATABASE,
            check=outside_sql_strings(_DROP_DATABASE),
            reason="DROP DATABASE deletes a whole database",
            explanation="The statement removes the schema with all its tables and data. MySQL "
            "commits DDL implicitly, so there is no rollback.",
            alternative="mysqldump the database first (mysqldump --single-transaction db > "
            "db.sql).",
            blocks=(
                "mysql -u root -e 'DROP DATABASE shop'",
                "mariadb -h db1 -e 'drop schema if exists legacy'",
            ),
            allows=("mysql -e 'SHOW DATABASES'", "mysql -e 'CREATE DATABASE shop'"),
        ),
        Rule(
            "drop-table",
            severity="high",
            pattern=_DROP_TABLE,
            check=outside_sql_strings(_DROP_TABLE),
            reason="DROP TABLE removes a table with all its rows",
            explanation="Dropping a table deletes its definition and data at once; DDL is "
            "committed implicitly, so there is nothing to roll back.",
            alternative="mysqldump the table first, or RENAME TABLE it aside and drop it later.",
            blocks=(
                "mysql shop -e 'DROP TABLE orders'",
                "mysql -uroot -p -e 'drop table if exists shop.sessions'",
            ),
            allows=(
                "mysql shop -e 'DESCRIBE orders'",
                "mysqldump shop orders > orders.sql",
                "mysql shop -e \"INSERT INTO todo VALUES ('DROP TABLE tmp_import later')\"",
            ),
        ),
        Rule(
            "truncate",
            severity="high",
            pattern=_TRUNCATE,
            check=outside_sql_strings(_TRUNCATE),
            reason="TRUNCATE empties a table",
            explanation="TRUNCATE drops and recreates the table, so all rows vanish and the "
            "operation cannot be rolled back.",
            alternative="Copy the table first (CREATE TABLE t_bak LIKE t; INSERT INTO t_bak "
            "SELECT * FROM t).",
            blocks=(
                "mysql shop -e 'TRUNCATE TABLE orders'",
                "mysql -e 'truncate shop.audit_log'",
            ),
            allows=("mysql -e 'SELECT COUNT(*) FROM shop.audit_log'", "mysql -e 'SHOW TABLES'"),
        ),
        Rule(
            "delete-without-where",
            severity="high",
            pattern=_DELETE_WITHOUT_WHERE,
            check=outside_sql_strings(_DELETE_WITHOUT_WHERE),
            reason="DELETE or UPDATE without WHERE changes every row of the table",
            explanation="Without a WHERE clause the statement applies to the whole table and "
            "autocommit makes it permanent immediately.",
            alternative="Add a WHERE clause, check it with SELECT first, and use "
            "--safe-updates (mysql -U) which refuses unkeyed changes.",
            blocks=(
                "mysql shop -e 'DELETE FROM users'",
                "mysql -e 'UPDATE shop.users SET admin=1'",
            ),
            allows=(
                "mysql shop -e 'DELETE FROM users WHERE id = 3'",
                "mysql -e 'SELECT * FROM shop.users'",
            ),
        ),
    ),
)
