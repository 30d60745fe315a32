"""Allowlist entries (user and system ``allowlist.toml``) and the hook's fast lookup.

An entry names a rule (``core.git:reset-hard``), every rule of a pack
(``core.git:*``) or one exact simple command (``command = "rm -rf build"``, compared
with the matched segment's argv joined by spaces, never with a whole compound line).
Entries may carry ``reason``, ``added_at`` and ``expires_at``.

Parsing TOML costs the hook more than everything else it does, so the parsed entries
are cached as JSON in the private session directory, keyed by each file's inode,
size and mtime; a hand edit of either file invalidates the cache.
"""

from __future__ import annotations

from dcg import jsonfast, paths
from dcg import oslite as os
from dcg.state import clock, files

Entry = dict[str, str]
_CACHE_NAME = "allowlist-cache.json"


def _read_toml(path: str) -> list[Entry]:
    import tomllib

    with open(path, "rb") as fh:
        doc = tomllib.load(fh)
    out: list[Entry] = []
    raw = doc.get("allow", [])
    if not isinstance(raw, list):
        return out
    for item in raw:
        if not isinstance(item, dict):
            continue
        entry = {k: str(v) for k, v in item.items() if isinstance(v, (str, int, float))}
        if entry.get("rule") or entry.get("command"):
            entry["source"] = path
            out.append(entry)
    return out


def _signature(path: str) -> list[object] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [path, st.st_ino, st.st_size, st.st_mtime_ns]


def load_entries(
    sources: tuple[str, ...] | None = None, *, write_cache: bool = True
) -> list[Entry]:
    """All entries of the user and system allowlists (expired ones included)."""
    if sources is None:
        sources = (paths.allowlist_file(), paths.system_allowlist_file())
    sigs = [s for s in (_signature(p) for p in sources) if s is not None]
    if not sigs:
        return []
    cache = os.path.join(paths.session_dir(), _CACHE_NAME)
    try:
        doc = jsonfast.loads(files.read_bytes(cache).decode() or "null")
        if isinstance(doc, dict) and doc.get("sources") == sigs:
            entries = doc.get("entries")
            if isinstance(entries, list):
                return entries
    except (OSError, ValueError, UnicodeDecodeError):
        pass
    entries = []
    for sig in sigs:
        try:
            entries.extend(_read_toml(str(sig[0])))
        except (OSError, ValueError) as exc:
            files.note(f"dcg: ignoring unreadable allowlist {sig[0]}: {exc}")
    if not write_cache:
        return entries
    try:
        files.ensure_dir(paths.session_dir())
        payload = {"schema_version": 1, "sources": sigs, "entries": entries}
        files.write_replace(cache, jsonfast.dumps(payload).encode())
    except OSError:
        pass
    return entries


def entry_matches(entry: Entry, rule_id: str, segment: str, now_iso: str) -> bool:
    exp = entry.get("expires_at")
    if exp and exp < now_iso:
        return False
    rule = entry.get("rule")
    if rule:
        return rule == rule_id or (rule.endswith(":*") and rule_id.startswith(rule[:-1]))
    command = entry.get("command")
    return bool(command) and " ".join(str(command).split()) == segment


def find(
    rule_id: str, segment: str, now: float, *, write_cache: bool = True, user: bool = True
) -> Entry | None:
    """The first live entry allowing this rule (or this exact segment), if any.

    ``user=False`` (a managed policy's ``[allowlist] user = false``) reads only the
    system allowlist.
    """
    sources = None if user else (paths.system_allowlist_file(),)
    entries = load_entries(sources, write_cache=write_cache)
    if not entries:
        return None
    now_iso = clock.iso(now)
    for entry in entries:
        if entry_matches(entry, rule_id, segment, now_iso):
            return entry
    return None


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


def remove(path: str, target: str, *, command: bool) -> int:
    """Remove every entry naming ``target`` (a rule selector or a command); return the count."""
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
    keep = [t for t in aot if " ".join(str(t.get(key, "")).split()) != norm]
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
