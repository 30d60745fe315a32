"""Allowlist entries (user and system ``allowlist.toml``) and the hook's fast lookup.

An entry excuses one match: a match of the rule it names (``core.git:reset-hard``), of
any rule of a pack (``core.git:*``: the pack id and a colon, never a longer pack name),
or every match on one exact simple command (``command = "rm -rf build"``; whether a
simple command is that one is :func:`dcg.approvals.same_command`'s call, made with the
shell parser). Entries may carry ``reason``, ``added_at`` and ``expires_at``.

An entry that is malformed or has a field of the wrong type (an unquoted TOML date-time
for ``expires_at``, a number for ``rule``, an unknown field, a rule that is not a rule
id) is ignored, never read more loosely: the command is judged as if it were absent, the
hook's reply names it, ``dcg doctor`` fails on it and ``dcg allowlist list`` shows it.

Parsing TOML costs the hook more than everything else it does, so the parsed entries
are cached as JSON in the private session directory, keyed by each file's inode,
size and mtime; a hand edit of either file invalidates the cache.
"""

from __future__ import annotations

from dcg import jsonfast, paths
from dcg import oslite as os
from dcg.state import clock, files

TYPE_CHECKING = False  # typing costs ms at start-up; type checkers treat this as True

if TYPE_CHECKING:
    from collections.abc import Callable

Entry = dict[str, str]
_CACHE_NAME = "allowlist-cache.json"
# 2: the invalid entries are cached too, and an expiry in a wrong form no longer reads as none.
CACHE_VERSION = 2


# What an entry may hold; every value a quoted string (see _problem).
FIELDS = ("rule", "command", "reason", "added_at", "expires_at")
_PACK_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789._-")
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_-")
_TIMES = ("added_at", "expires_at")


def _read_toml(path: str) -> tuple[list[Entry], list[Entry]]:
    """The valid entries of one allowlist file, and the invalid ones described.

    An entry that is malformed or has a wrongly typed field is left out (the command is
    judged as if it were absent: never a looser reading such as an expiry dropped), and
    named: ``source``, ``index`` (1-based), ``problem``, and its ``rule`` or ``command``
    when that is a string (the hook names the entries that would have excused a match).
    """
    import tomllib

    with open(path, "rb") as fh:
        doc = tomllib.load(fh)
    out: list[Entry] = []
    bad: list[Entry] = []
    for key in doc:
        if key != "allow":
            bad.append({"source": path, "index": "0", "problem": f"unknown key {key!r}"})
    raw = doc.get("allow", [])
    if not isinstance(raw, list):
        problem = f"allow is {_kind(raw)}, not an array of tables ([[allow]])"
        return out, [*bad, {"source": path, "index": "0", "problem": problem}]
    for n, item in enumerate(raw, 1):
        why = _problem(item)
        if why is None:
            entry = {k: str(v) for k, v in item.items()}
            entry["source"] = path
            out.append(entry)
            continue
        desc = {"source": path, "index": str(n), "problem": why}
        if isinstance(item, dict):
            for key in ("rule", "command"):
                if isinstance(item.get(key), str):
                    desc[key] = item[key]
        bad.append(desc)
    return out, bad


def _problem(item: object) -> str | None:
    """Why an ``[[allow]]`` entry cannot be used as written; None when it can."""
    if not isinstance(item, dict):
        return f"the entry is {_kind(item)}, not a table"
    for key, value in item.items():
        if key not in FIELDS:
            return f"unknown field {key!r} (fields: {', '.join(FIELDS)})"
        if not isinstance(value, str):
            hint = f' (write {key} = "2026-01-31T00:00:00Z")' if key in _TIMES else ""
            return f"{key} is {_kind(value)}, not a quoted string{hint}"
    rule, command = item.get("rule"), item.get("command")
    if rule is None and command is None:
        return "it names neither a rule nor a command"
    if rule is not None and command is not None:
        return "it names both a rule and a command (one entry, one of them)"
    if rule is not None and not _rule_shape(rule):
        return f"rule {rule!r} is not a rule id (pack.id:rule-name or pack.id:*)"
    if command is not None and not command.strip():
        return "command is empty"
    for key in _TIMES:
        if key in item and not _timestamp(item[key]):
            return f'{key} {item[key]!r} is not a UTC time written "2026-01-31T00:00:00Z"'
    return None


def _kind(value: object) -> str:
    import datetime

    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        return "a TOML date-time"
    names = {int: "a number", float: "a number", str: "a string", list: "an array", dict: "a table"}
    return names.get(type(value), f"a {type(value).__name__}")


def _rule_shape(rule: str) -> bool:
    pack, sep, name = rule.partition(":")
    parts = pack.split(".")
    return (
        bool(sep)
        and all(p and set(p) <= _PACK_CHARS for p in parts)
        and (name == "*" or (bool(name) and set(name) <= _NAME_CHARS))
    )


def _timestamp(text: str) -> bool:
    """Whether ``text`` is a time as :func:`dcg.state.clock.iso` writes it (the form the
    hook compares entries' expiry with, as text)."""
    try:
        return clock.iso(clock.parse_iso(text)) == text
    except ValueError:
        return False


def _signature(path: str) -> list[object] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [path, st.st_ino, st.st_size, st.st_mtime_ns]


def load_entries(
    sources: tuple[str, ...] | None = None, *, write_cache: bool = True
) -> list[Entry]:
    """All valid entries of the user and system allowlists (expired ones included)."""
    return load(sources, write_cache=write_cache)[0]


def load(
    sources: tuple[str, ...] | None = None, *, write_cache: bool = True
) -> tuple[list[Entry], list[Entry]]:
    """The valid entries of the allowlists, and the invalid ones (see :func:`_read_toml`)."""
    if sources is None:
        sources = (paths.allowlist_file(), paths.system_allowlist_file())
    sigs = [s for s in (_signature(p) for p in sources) if s is not None]
    if not sigs:
        return [], []
    cache = os.path.join(paths.session_dir(), _CACHE_NAME)
    try:
        doc = jsonfast.loads(files.read_bytes(cache).decode() or "null")
        if (
            isinstance(doc, dict)
            and doc.get("schema_version") == CACHE_VERSION
            and doc.get("sources") == sigs
        ):
            cached, skipped = doc.get("entries"), doc.get("invalid")
            if isinstance(cached, list) and isinstance(skipped, list):
                return cached, skipped
    except (OSError, ValueError, UnicodeDecodeError):
        pass
    entries: list[Entry] = []
    invalid: list[Entry] = []
    for sig in sigs:
        try:
            good, bad = _read_toml(str(sig[0]))
        except (OSError, ValueError) as exc:
            files.note(f"dcg: ignoring unreadable allowlist {sig[0]}: {exc}")
            bad = [{"source": str(sig[0]), "index": "0", "problem": f"unreadable: {exc}"}]
            good = []
        entries.extend(good)
        invalid.extend(bad)
    if not write_cache:
        return entries, invalid
    try:
        files.ensure_dir(paths.session_dir())
        payload = {
            "schema_version": CACHE_VERSION,
            "sources": sigs,
            "entries": entries,
            "invalid": invalid,
        }
        files.write_replace(cache, jsonfast.dumps(payload).encode())
    except OSError:
        pass
    return entries, invalid


def problems() -> list[str]:
    """Every invalid entry of the user and system allowlists, described (``dcg doctor``)."""
    return [describe(bad) for bad in load(write_cache=False)[1]]


def describe(bad: Entry) -> str:
    """One invalid entry for a person: the file, which entry, what it names, why."""
    where = (
        bad["source"] if bad.get("index", "0") == "0" else f"{bad['source']} entry {bad['index']}"
    )
    what = next(
        (f" ({k} = {jsonfast.dumps(bad[k])})" for k in ("rule", "command") if bad.get(k)), ""
    )
    return f"{where}{what}: {bad['problem']}"


def entry_matches(
    entry: Entry, rule_id: str, same_command: Callable[[str], bool], now_iso: str
) -> bool:
    """A live entry naming ``rule_id`` or, for a command entry, a text ``same_command``
    says is the matched simple command."""
    exp = entry.get("expires_at")
    if exp and exp < now_iso:
        return False
    rule = entry.get("rule")
    if rule:
        # A pack wildcard is "<pack id>:*"; the colon keeps `core.git:*` off `core.github`.
        return rule == rule_id or (
            rule.endswith(":*") and len(rule) > 2 and rule_id.startswith(rule[:-1])
        )
    text = entry.get("command")
    return bool(text) and same_command(str(text))


def find(
    rule_id: str,
    same_command: Callable[[str], bool],
    now: float,
    *,
    write_cache: bool = True,
    user: bool = True,
) -> Entry | None:
    """The first live entry allowing this rule, or (``same_command``) this simple command.

    ``user=False`` (a managed policy's ``[allowlist] user = false``) reads only the
    system allowlist. Invalid entries that would have named this match (or name nothing
    that can be told) are kept for :func:`take_ignored`.
    """
    sources = None if user else (paths.system_allowlist_file(),)
    entries, invalid = load(sources, write_cache=write_cache)
    for bad in invalid:
        if _names(bad, rule_id, same_command):
            text = describe(bad)
            if text not in _ignored:
                _ignored.append(text)
    if not entries:
        return None
    now_iso = clock.iso(now)
    for entry in entries:
        if entry_matches(entry, rule_id, same_command, now_iso):
            return entry
    return None


_ignored: list[str] = []


def _names(bad: Entry, rule_id: str, same_command: Callable[[str], bool]) -> bool:
    """Whether an invalid entry was likely meant for this match: its rule or command
    would name it, a malformed rule mentions its pack or rule name, or it names nothing
    that can be told (then it may have been meant for anything)."""
    rule, command = (bad.get("rule") or "").strip(), (bad.get("command") or "").strip()
    if not (rule or command) or (command and same_command(command)):
        return True
    if not rule:
        return False
    if _rule_shape(rule):
        return entry_matches({"rule": rule}, rule_id, same_command, "")
    near = "".join(rule.split()).lower()
    pack, _, name = rule_id.partition(":")
    return near.partition(":")[0] == pack or name in near.split(":")


def take_ignored() -> list[str]:
    """The invalid entries :func:`find` came across since the last call, described."""
    out = list(_ignored)
    _ignored.clear()
    return out


def add(path: str, entry: Entry) -> None:
    """Append an entry to an allowlist file, keeping its comments."""
    import tomlkit

    text = ""
    if os.path.exists(path):
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    doc = tomlkit.parse(text) if text else tomlkit.document()
    if not text:
        doc.add(tomlkit.comment("dcg allowlist: matching commands bypass graduation."))
        doc.add(tomlkit.comment("Edit with `dcg allowlist add|remove|list`."))
    if "allow" not in doc:
        doc.append("allow", tomlkit.aot())
    table = tomlkit.table()
    for key, value in entry.items():
        table.add(key, value)
    doc["allow"].append(table)
    _write(path, tomlkit.dumps(doc))


def remove(
    path: str, target: str, *, command: bool, same: Callable[[str], bool] | None = None
) -> int:
    """Remove every entry naming ``target`` (a rule selector, or a command: by its text, or
    any text ``same`` says is the same command); return the count."""
    import tomlkit

    if not os.path.exists(path):
        return 0
    with open(path, encoding="utf-8") as fh:
        doc = tomlkit.parse(fh.read())
    aot = doc.get("allow")
    if aot is None:
        return 0
    key = "command" if command else "rule"
    norm = " ".join(target.split()) if command else target

    def named(value: object) -> bool:
        text = str(value)
        return " ".join(text.split()) == norm or (command and same is not None and same(text))

    keep = [t for t in aot if not (key in t and named(t.get(key, "")))]
    removed = len(aot) - len(keep)
    if removed:
        new = tomlkit.aot()
        for t in keep:
            new.append(t)
        doc["allow"] = new
        _write(path, tomlkit.dumps(doc))
    return removed


def _write(path: str, text: str) -> None:
    directory = os.path.dirname(path)
    if directory == paths.config_dir():
        files.ensure_dir(directory)
        files.write_replace(path, text.encode())
    else:
        # The system allowlist must stay readable by every user's hook.
        os.makedirs(directory, exist_ok=True)
        files.write_replace(path, text.encode(), mode=0o644)
