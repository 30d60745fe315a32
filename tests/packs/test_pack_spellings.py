"""Pack spellings: code in glued or `=` options, SQL comments between keywords, Lua
scripts calling destructive Redis commands, and REST DELETEs to GitHub and GitLab.

Every case runs through the hook entry point with a real Claude Code payload, alone and
on a later line, after a tab and after CRLF. The SQL cases sqlite3 can run are proven in
a throwaway database: each must-stop case drops or empties the table, each must-pass
case leaves it.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from dcg import hook
from dcg.shell.clients import strip_comments

PG, MY, LITE = "database.postgresql", "database.mysql", "database.sqlite"
MONGO, REDIS, GH, GL = "database.mongodb", "database.redis", "platform.github", "platform.gitlab"

STOP = [
    # glued short options and long `=` forms
    ("psql -c'DROP TABLE users'", f"{PG}:drop-object", "high"),
    ('psql -c"drop table users"', f"{PG}:drop-object", "high"),
    ("psql --command='DROP TABLE users'", f"{PG}:drop-object", "high"),
    ("psql --command 'DROP SCHEMA public CASCADE'", f"{PG}:drop-object", "high"),
    ("psql -d app -c'TRUNCATE orders'", f"{PG}:truncate", "high"),
    ("psql --command='DROP DATABASE prod'", f"{PG}:drop-database", "critical"),
    ("psql -cDROP\\ DATABASE\\ prod", f"{PG}:drop-database", "critical"),
    ("mysql -e'DROP TABLE users'", f"{MY}:drop-table", "high"),
    ('mysql -e"drop database shop"', f"{MY}:drop-database", "critical"),
    ("mysql --execute='DROP TABLE users'", f"{MY}:drop-table", "high"),
    ("mysql -u root --execute='TRUNCATE TABLE t'", f"{MY}:truncate", "high"),
    ("mariadb -e'DROP TABLE users'", f"{MY}:drop-table", "high"),
    ("sqlite3 app.db -cmd='DROP TABLE users'", f"{LITE}:drop", "high"),
    ("mongosh --eval='db.dropDatabase()'", f"{MONGO}:drop-database", "critical"),
    ("mongosh shop --eval=\"db['users'].drop()\"", f"{MONGO}:drop-collection", "high"),
    ("mongosh --eval \"db.getCollection('x').drop()\"", f"{MONGO}:drop-collection", "high"),
    ("mongosh --eval \"db.getSiblingDB('shop').dropDatabase()\"", f"{MONGO}:drop-database",
     "critical"),
    ("mongosh --eval \"db['orders'].deleteMany({})\"", f"{MONGO}:delete-all", "high"),
    # SQL comments, case and whitespace
    ("psql -c 'DROP/**/TABLE users'", f"{PG}:drop-object", "high"),
    ("psql -c 'DROP/* why */TABLE users'", f"{PG}:drop-object", "high"),
    ("psql -c $'DROP -- c\\nTABLE users'", f"{PG}:drop-object", "high"),
    ("psql -c 'DrOp\tTaBlE users'", f"{PG}:drop-object", "high"),
    ("psql -c $'drop\\n\\ntable users'", f"{PG}:drop-object", "high"),
    ("psql -c 'TRUNCATE/**/orders'", f"{PG}:truncate", "high"),
    ("psql -c 'DELETE/**/FROM users'", f"{PG}:delete-without-where", "high"),
    ("psql -c \"SELECT '--'; DROP TABLE users\"", f"{PG}:drop-object", "high"),
    ("psql -c \"SELECT '/*'; DROP TABLE users\"", f"{PG}:drop-object", "high"),
    ("psql -c 'SELECT 1 # 2; DROP TABLE users'", f"{PG}:drop-object", "high"),
    ("psql <<< 'DROP/**/TABLE users'", f"{PG}:drop-object", "high"),
    ("printf 'DROP -- c\\nTABLE users' | psql", f"{PG}:drop-object", "high"),
    ("mysql -e 'DROP/**/TABLE users'", f"{MY}:drop-table", "high"),
    ("mysql -e $'DROP # c\\nTABLE users'", f"{MY}:drop-table", "high"),
    ("mysql -e $'DROP -- c\\nTABLE users'", f"{MY}:drop-table", "high"),
    ("mysql -e 'SELECT 1--1; DROP TABLE users'", f"{MY}:drop-table", "high"),
    ("mysql -e 'DROP/*!TABLE*/ users'", f"{MY}:drop-table", "high"),
    ("mysql -e 'drop/**/database/**/shop'", f"{MY}:drop-database", "critical"),
    ("sqlite3 app.db 'DROP/**/TABLE users'", f"{LITE}:drop", "high"),
    ("sqlite3 app.db $'DROP -- c\\nTABLE users'", f"{LITE}:drop", "high"),
    ("sqlite3 app.db 'DELETE/**/FROM users'", f"{LITE}:delete-without-where", "high"),
    ("echo 'DROP/**/TABLE users' | sqlite3 app.db", f"{LITE}:drop", "high"),
    ("sqlite3 app.db <<< 'drop /* x */ table users'", f"{LITE}:drop", "high"),
    # redis-cli EVAL
    ("redis-cli EVAL \"return redis.call('FLUSHALL')\" 0", f"{REDIS}:eval-destructive",
     "critical"),
    ("redis-cli eval \"redis.call( 'flushdb' )\" 0", f"{REDIS}:eval-destructive", "critical"),
    ("redis-cli -h cache1 EVAL \"redis.pcall('FLUSHALL','ASYNC')\" 0",
     f"{REDIS}:eval-destructive", "critical"),
    ("redis-cli EVAL 'redis.call(\"SHUTDOWN\", \"NOSAVE\")' 0", f"{REDIS}:eval-destructive",
     "critical"),
    ("redis-cli EVAL 'redis.call([[FLUSHALL]])' 0", f"{REDIS}:eval-destructive", "critical"),
    ("redis-cli EVAL_RO \"redis.call('UNLINK', KEYS[1])\" 1 k", f"{REDIS}:eval-destructive",
     "critical"),
    # REST DELETEs against platform APIs
    ("curl -X DELETE https://api.github.com/repos/o/r", f"{GH}:rest-delete", "high"),
    ("curl -XDELETE https://api.github.com/repos/o/r", f"{GH}:rest-delete", "high"),
    ("curl --request DELETE https://api.github.com/repos/o/r", f"{GH}:rest-delete", "high"),
    ("curl --request=DELETE https://api.github.com/repos/o/r", f"{GH}:rest-delete", "high"),
    ("curl -sSX delete https://api.github.com/repos/o/r/git/refs/heads/x", f"{GH}:rest-delete",
     "high"),
    ("curl -H 'Authorization: Bearer t' -X DELETE https://api.github.com/orgs/o/members/u",
     f"{GH}:rest-delete", "high"),
    ("curl -X DELETE https://ghe.example.com/api/v3/repos/o/r", None, None),
    ("curl -X DELETE https://github.corp.example/api/v3/repos/o/r", f"{GH}:rest-delete", "high"),
    ("http DELETE https://api.github.com/repos/o/r", f"{GH}:rest-delete", "high"),
    ("xh DELETE https://api.github.com/gists/abc", f"{GH}:rest-delete", "high"),
    ("wget --method=DELETE https://api.github.com/user/keys/1", f"{GH}:rest-delete", "high"),
    ("curl -X DELETE https://gitlab.com/api/v4/projects/42", f"{GL}:rest-delete", "high"),
    ("curl -XDELETE https://gitlab.example.com/api/v4/groups/7", f"{GL}:rest-delete", "high"),
    ("curl --request DELETE https://git.corp/api/v4/projects/1/repository/branches/x",
     f"{GL}:rest-delete", "high"),
]  # fmt: skip
STOP = [c for c in STOP if c[1] is not None]

PASS = [
    "psql -c 'SELECT 1'",
    "psql -c\"SELECT 'DROP TABLE users'\"",
    "psql --command=\"SELECT 'drop table x'\"",
    "psql -c \"SELECT '/* DROP TABLE x */'\"",
    "psql -c \"COMMENT ON TABLE t IS '-- drop table t'\"",
    "psql -c 'SELECT 1 -- DROP TABLE users'",
    "psql -c 'SELECT 1 /* DROP TABLE users */'",
    "psql -cSELECT\\ 1",
    "mysql -e'SELECT 1'",
    "mysql --execute='SHOW TABLES'",
    "mysql -e 'SELECT 1 # DROP TABLE users'",
    "mysql -e \"SELECT '#'; SELECT 2\"",
    "sqlite3 app.db 'SELECT 1 -- DROP TABLE users'",
    "sqlite3 app.db \"SELECT 'DROP TABLE users'\"",
    "echo 'SELECT 1 /* DROP TABLE users */' | sqlite3 app.db",
    "mongosh --eval='db.stats()'",
    "mongosh --eval \"db['users'].find()\"",
    "redis-cli EVAL \"return redis.call('GET', KEYS[1])\" 1 k",
    "redis-cli SET note \"redis.call('FLUSHALL')\"",
    "redis-cli GET flushall",
    "curl https://api.github.com/repos/o/r",
    "curl -X GET https://api.github.com/repos/o/r",
    "curl -X POST https://api.github.com/repos/o/r/issues",
    "curl -X DELETE https://example.com/repos/o/r",
    "curl https://gitlab.com/api/v4/projects/42",
    "curl -X GET https://gitlab.com/api/v4/projects/42",
    "http GET https://api.github.com/repos/o/r",
]

PLACES = {"alone": "{}", "later-line": "cd .\n{}", "after-tab": "\t{}", "after-crlf": "ls\r\n{}"}
PACKS = "database,platform"


def _hook(command: str) -> str:
    payload = json.dumps(
        {
            "session_id": "pack-spellings",
            "transcript_path": "/tmp/transcript.jsonl",
            "cwd": "/home/dev/project",
            "permission_mode": "default",
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": command, "description": "test"},
            "tool_use_id": "toolu_01",
        }
    )
    out, err = io.StringIO(), io.StringIO()
    env = dict(os.environ, DCG_RESPONSE_MODE="paranoid", DCG_PACKS=PACKS, DCG_HOOK_DETAILS="1")
    assert hook.main([], io.BytesIO(payload.encode()), out, err, env) == 0
    return out.getvalue()


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize(("command", "rule", "severity"), [pytest.param(*c, id=c[0]) for c in STOP])
def test_stopped_through_hook(command: str, rule: str, severity: str, place: str) -> None:
    out = json.loads(_hook(PLACES[place].format(command)))["hookSpecificOutput"]
    assert out["permissionDecision"] == "deny"
    assert (out["ruleId"], out["severity"]) == (rule, severity)


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize("command", [pytest.param(c, id=c) for c in PASS])
def test_near_misses_pass_through_hook(command: str, place: str) -> None:
    assert _hook(PLACES[place].format(command)) == ""


@pytest.mark.parametrize(
    ("sql", "dialect", "expected"),
    [
        pytest.param("DROP/**/TABLE t", "sql", "DROP TABLE t", id="block"),
        pytest.param("DROP -- x\nTABLE t", "sql", "DROP  \nTABLE t", id="line"),
        pytest.param("SELECT '--'; DROP", "sql", "SELECT '--'; DROP", id="in-string"),
        pytest.param("SELECT 'it''s -- x'", "sql", "SELECT 'it''s -- x'", id="doubled-quote"),
        pytest.param("SELECT 1 # 2", "sql", "SELECT 1 # 2", id="pg-hash-is-code"),
        pytest.param("SELECT 1 # 2", "mysql", "SELECT 1  ", id="mysql-hash"),
        pytest.param("1--1; DROP", "mysql", "1--1; DROP", id="mysql-dashes-need-space"),
        pytest.param("DROP/*!TABLE*/ t", "mysql", "DROP TABLE  t", id="mysql-executable"),
        pytest.param("DROP /* open", "sql", "DROP  ", id="unterminated"),
    ],
)
def test_strip_comments(sql: str, dialect: str, expected: str) -> None:
    assert strip_comments(sql, dialect) == expected


# --- sandbox: sqlite3 really runs the statements --------------------------------------

SQLITE = shutil.which("sqlite3")
BASH = shutil.which("bash")

SANDBOX_STOP = [
    "sqlite3 app.db 'DROP/**/TABLE users'",
    "sqlite3 app.db $'DROP -- c\\nTABLE users'",
    "sqlite3 app.db 'DrOp\tTaBlE users'",
    "sqlite3 app.db 'DELETE/**/FROM users'",
    "sqlite3 app.db \"SELECT '--'; DROP TABLE users\"",
    "sqlite3 app.db -cmd 'DROP TABLE users' .quit",
    "echo 'DROP/**/TABLE users' | sqlite3 app.db",
    "sqlite3 app.db <<< 'drop /* x */ table users'",
]
SANDBOX_PASS = [
    "sqlite3 app.db 'SELECT 1 -- DROP TABLE users'",
    "sqlite3 app.db 'SELECT 1 /* DROP TABLE users */'",
    "sqlite3 app.db \"SELECT 'DROP TABLE users'\"",
    "echo 'SELECT 1 /* DROP TABLE users */' | sqlite3 app.db",
]


def _rows(tmp_path: Path, command: str) -> str:
    box = tmp_path / "sandbox"
    box.mkdir()
    env = {"HOME": str(box), "TMPDIR": str(box), "PATH": os.environ["PATH"]}
    setup = "sqlite3 app.db 'CREATE TABLE users(id); INSERT INTO users VALUES (1)'"
    subprocess.run([BASH or "bash", "-c", setup], cwd=box, env=env, check=True)
    subprocess.run([BASH or "bash", "-c", command], cwd=box, env=env, capture_output=True)
    count = "sqlite3 app.db 'SELECT count(*) FROM users' 2>/dev/null || echo gone"
    done = subprocess.run([BASH or "bash", "-c", count], cwd=box, env=env, capture_output=True)
    return done.stdout.decode().strip()


needs_sqlite = pytest.mark.skipif(SQLITE is None or BASH is None, reason="sqlite3 needed")


@needs_sqlite
@pytest.mark.parametrize("command", [pytest.param(c, id=c) for c in SANDBOX_STOP])
def test_sandbox_stop_case_loses_rows(tmp_path: Path, command: str) -> None:
    assert _rows(tmp_path, command) in ("gone", "0")
    assert json.loads(_hook(command))["hookSpecificOutput"]["permissionDecision"] == "deny"


@needs_sqlite
@pytest.mark.parametrize("command", [pytest.param(c, id=c) for c in SANDBOX_PASS])
def test_sandbox_pass_case_is_harmless(tmp_path: Path, command: str) -> None:
    assert _rows(tmp_path, command) == "1"
    assert _hook(command) == ""
