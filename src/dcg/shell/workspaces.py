"""The workspace packages a pnpm -r/--filter, npm --workspaces/-w or yarn foreach run reaches."""

from __future__ import annotations

from dcg import oslite as os
from dcg.shell.expand import match

MAX_PACKAGES = 200  # workspace packages read for one run
_SKIP = ("node_modules", ".git")


def root(start: str) -> str | None:
    """The workspace root at or above ``start``: a directory with pnpm-workspace.yaml or a
    package.json that declares ``workspaces``."""
    here = start
    for _ in range(32):
        if os.path.isfile(os.path.join(here, "pnpm-workspace.yaml")):
            return here
        if _declared(os.path.join(here, "package.json")):
            return here
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent
    return None


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read(1 << 20)
    except OSError:
        return None


def _declared(path: str) -> list[str]:
    """The ``workspaces`` globs of a package.json (array, or ``{packages: [...]}``)."""
    text = _read(path) if os.path.isfile(path) else None
    if not text:
        return []
    from dcg import jsonfast

    try:
        data = jsonfast.loads(text)
    except (jsonfast.JSONError, ValueError, RecursionError):
        return []
    found = data.get("workspaces") if isinstance(data, dict) else None
    if isinstance(found, dict):
        found = found.get("packages")
    return [g for g in found if isinstance(g, str)] if isinstance(found, list) else []


def _pnpm_globs(text: str) -> list[str]:
    """The ``packages:`` list of a pnpm-workspace.yaml (block or flow form)."""
    out: list[str] = []
    inside = False
    for raw in text.splitlines():
        line = raw.split(" #", 1)[0].rstrip()
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if not line[0].isspace() and not line.startswith("-"):
            inside = line.startswith("packages:")
            flow = line[len("packages:") :].strip()
            if inside and flow.startswith("["):
                out += [v.strip().strip("'\"") for v in flow.strip("[]").split(",") if v.strip()]
            continue
        item = line.strip()
        if inside and item.startswith("-"):
            out.append(item[1:].strip().strip("'\""))
    return out


def _expand(base: str, pattern: str) -> list[str]:
    """Directories under ``base`` that ``pattern`` (``*``, ``**``, literal parts) names."""
    found = [base]
    for part in [p for p in pattern.strip("/").split("/") if p and p != "."]:
        nxt: list[str] = []
        for d in found:
            if part == "**":
                nxt += _tree(d, 4)
            elif "*" in part or "?" in part or "[" in part:
                nxt += [os.path.join(d, n) for n in _dirs(d) if match(part, n)]
            elif os.path.isdir(os.path.join(d, part)):
                nxt.append(os.path.join(d, part))
        found = nxt[: MAX_PACKAGES * 4]
    return found


def _dirs(d: str) -> list[str]:
    try:
        names = sorted(os.listdir(d))
    except OSError:
        return []
    return [n for n in names if n not in _SKIP and os.path.isdir(os.path.join(d, n))]


def _tree(d: str, depth: int) -> list[str]:
    out = [d]
    if depth:
        for n in _dirs(d):
            out += _tree(os.path.join(d, n), depth - 1)
    return out


def packages(top: str) -> list[tuple[str, str]]:
    """``(directory, package name)`` of every workspace package under the root ``top``."""
    yaml = os.path.join(top, "pnpm-workspace.yaml")
    text = _read(yaml) if os.path.isfile(yaml) else None
    globs = _pnpm_globs(text) if text else []
    globs += _declared(os.path.join(top, "package.json"))
    exclude = [g[1:].strip("/") for g in globs if g.startswith("!")]
    out: dict[str, str] = {}
    for g in globs:
        if g.startswith("!"):
            continue
        for d in _expand(top, g):
            rel = os.path.relpath(d, top)
            if d == top or any(_excluded(x, rel) for x in exclude):
                continue
            pkg = os.path.join(d, "package.json")
            if d not in out and os.path.isfile(pkg):
                out[d] = _name(pkg) or rel
            if len(out) >= MAX_PACKAGES:
                return list(out.items())
    return list(out.items())


def _excluded(pattern: str, rel: str) -> bool:
    pats, parts = pattern.split("/"), rel.split("/")
    if pats[:1] == ["**"]:
        return any(_excluded("/".join(pats[1:]), "/".join(parts[i:])) for i in range(len(parts)))
    if pats == ["**"] or (not pats and not parts):
        return True
    if not pats or not parts:
        return pats == ["**"] or (not pats and not parts)
    return match(pats[0], parts[0]) and _excluded("/".join(pats[1:]), "/".join(parts[1:]))


def _name(path: str) -> str | None:
    text = _read(path)
    i = text.find('"name"') if text else -1
    if text is None or i < 0:
        return None
    j = text.find('"', text.find(":", i + 6) + 1)
    k = text.find('"', j + 1)
    return text[j + 1 : k] if 0 < j < k else None


def select(found: list[tuple[str, str]], top: str, selectors: list[str]) -> list[str]:
    """The directories ``selectors`` name (pnpm ``--filter``, npm ``-w``); every package
    for a selector dcg cannot resolve (git ranges, dependency graphs), none excluded."""
    if not selectors:
        return [d for d, _ in found]
    chosen: list[str] = []
    for raw in selectors:
        sel = raw.lstrip("!").strip("{}").strip(".").strip("^")
        sel = sel.removeprefix("...").removesuffix("...").strip("{}")
        if raw.startswith("!"):
            continue
        hits = [d for d, name in found if match(sel, name) or
                match(sel.strip("/"), os.path.relpath(d, top)) or
                os.path.normpath(os.path.join(top, sel)) == d]  # fmt: skip
        chosen += hits or [d for d, _ in found]
    return list(dict.fromkeys(chosen))
