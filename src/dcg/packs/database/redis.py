"""Redis: FLUSHALL, FLUSHDB, mass DEL, SHUTDOWN and Lua scripts calling them, through redis-cli."""

from dcg.model import Pack, Rule

# redis-cli and its options: the Redis command is the first word after them (a FLUSHALL
# further on is a value: `redis-cli SET note FLUSHALL`), or it arrives on stdin.
_CLI = (
    r"(?i)^redis-cli (?:(?:-[hpsaunrid]|--user|--pass|--askpass|--cacert|--cert|--key|--sni)"
    r" [^ ]+ |--?[a-z][a-z-]* )*"
)

PACK = Pack(
    "database.redis",
    description="Redis: FLUSHALL, FLUSHDB, deleting keys (also via xargs) and SHUTDOWN NOSAVE "
    "through redis-cli",
    rules=(
        Rule(
            "flushall",
            severity="critical",
            pattern=_CLI + r"(?:flushall|.*<<< (?:.* )?flushall)(?: |$)",
            reason="FLUSHALL deletes every key in every database of the server",
            explanation="All databases of the Redis instance are emptied. Persistence files "
            "are rewritten on the next save, so unless an older RDB/AOF copy exists the data "
            "is gone.",
            alternative="Copy the RDB file first (BGSAVE, then copy dump.rdb) and flush only "
            "the keys you need with a scoped pattern.",
            blocks=(
                "redis-cli FLUSHALL",
                "redis-cli -h cache1 -a secret flushall async",
                "echo FLUSHALL | redis-cli",
            ),
            allows=(
                "redis-cli SET last_command FLUSHALL",
                "redis-cli INFO keyspace",
                "redis-cli DBSIZE",
            ),
        ),
        Rule(
            "flushdb",
            severity="high",
            pattern=_CLI + r"(?:flushdb|.*<<< (?:.* )?flushdb)(?: |$)",
            reason="FLUSHDB deletes every key in the selected database",
            explanation="The whole logical database (selected with -n) is emptied at once.",
            alternative="BGSAVE and copy dump.rdb first, or delete a scoped set of keys.",
            blocks=("redis-cli FLUSHDB", "redis-cli -n 3 flushdb"),
            allows=("redis-cli -n 3 dbsize", "redis-cli -n 3 --scan --pattern 'session:*'"),
        ),
        Rule(
            "del-keys",
            severity="medium",
            pattern=r"(?i)^(?:redis-cli\s(?:.*\s)?|xargs\s(?=(?:.*\s)?redis-cli\s)(?:.*\s)?)"
            r"(?:del|unlink)(?:\s|$)",
            reason="DEL/UNLINK deletes keys, often a whole pattern fed through xargs",
            explanation="Deleting keys is immediate. Piped from --scan --pattern or KEYS, a "
            "broad pattern removes far more than intended.",
            alternative="Run the --scan --pattern part alone and count the keys first, or set "
            "an EXPIRE instead.",
            blocks=(
                "redis-cli DEL session:42 session:43",
                "redis-cli --scan --pattern 'user:*' | xargs redis-cli del",
            ),
            allows=(
                "redis-cli --scan --pattern 'user:*'",
                "redis-cli GET session:42",
            ),
        ),
        Rule(
            "eval-destructive",
            severity="critical",
            pattern=_CLI + r"(?:eval|eval_ro|fcall|function\s+load)\s.*redis\.p?call\s*\(\s*"
            r"(?:\[=*\[\s*|['\"])\s*(?:flushall|flushdb|shutdown|del|unlink|swapdb)\b",
            reason="EVAL runs a Lua script that calls FLUSHALL, FLUSHDB, DEL or SHUTDOWN",
            explanation="redis.call inside EVAL runs the same commands as redis-cli would: "
            "redis.call('FLUSHALL') empties every database just as FLUSHALL does.",
            alternative="Run the script's read-only part first, or BGSAVE and copy dump.rdb.",
            blocks=(
                "redis-cli EVAL \"return redis.call('FLUSHALL')\" 0",
                "redis-cli -h cache1 eval \"redis.pcall( 'flushdb' )\" 0",
                "redis-cli EVAL 'for _,k in ipairs(KEYS) do redis.call(\"DEL\", k) end' 2 a b",
            ),
            allows=(
                "redis-cli EVAL \"return redis.call('GET', KEYS[1])\" 1 k",
                "redis-cli SET note \"redis.call('FLUSHALL')\"",
            ),
        ),
        Rule(
            "shutdown",
            severity="high",
            pattern=r"(?i)^redis-cli\s(?:.*\s)?(?:shutdown(?:\s|$)|debug\s+(?:segfault|flushall)"
            r"|config\s+set\s+(?:dir|dbfilename)\s)",
            reason="SHUTDOWN (NOSAVE) stops the server, and changing dir/dbfilename redirects "
            "where data is saved",
            explanation="SHUTDOWN NOSAVE discards everything written since the last snapshot; "
            "plain SHUTDOWN still takes the service down. CONFIG SET dir/dbfilename makes the "
            "next save write somewhere else, a classic way to overwrite files.",
            alternative="Restart Redis through its service manager, and change persistence "
            "settings in redis.conf.",
            blocks=("redis-cli shutdown nosave", "redis-cli CONFIG SET dir /var/www"),
            allows=("redis-cli CONFIG GET dir", "redis-cli BGSAVE"),
        ),
    ),
)
