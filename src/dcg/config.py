"""Configuration: one schema, one merge; defaults < system < user < DCG_CONFIG < env < flags.

A repository's ``.dcg.toml`` (found by walking up from the command's cwd) is merged
last but may only tighten: it can enable packs and nothing else (decisions.md §5).
``tomllib`` is imported only when a config file exists, so the hook pays nothing for
configuration on a machine that has none.
"""

from __future__ import annotations

from dcg import oslite as os
from dcg import paths
from dcg.packs import CORE
from dcg.response import DEFAULTS, MODES, ResponseConfig
from dcg.safety.settings import DEFAULTS as SAFETY_NET_DEFAULTS
from dcg.safety.settings import problem as safety_problem

# typing is not imported at run time: it costs more than the hook's whole budget.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

# [response]'s keys and defaults live with its typed value (dcg.response).
RESPONSE_DEFAULTS: dict[str, object] = {**DEFAULTS, "history_window": "24h"}  # as written
HISTORY_DEFAULTS: dict[str, object] = {
    "max_age": "30d",
    "max_entries": 10000,
    "prune_on_startup": True,
    "record_commands": True,
}
# details: the draft's extra JSON fields for tooling (decisions.md 10.9); off by default.
HOOK_DEFAULTS: dict[str, object] = {"fail_open": False, "budget_ms": 200, "details": False}
PACKS_DEFAULTS: dict[str, object] = {"enabled": [], "disabled": []}
# Where `dcg audit ship` sends records (OTLP/HTTP); "" means the OTEL_EXPORTER_OTLP_*
# variables. Only the system config and the managed policy may set these.
AUDIT_DEFAULTS: dict[str, object] = {
    "endpoint": "",
    "headers": {},
    "batch_size": 200,
    "timeout": 10,
}

LEVELS = ("warning", "soft_block", "hard_block")
CHOICES: dict[str, tuple[str, ...]] = {
    "response.mode": MODES,
    "response.high_minimum_level": LEVELS,
    "response.soft_block_action": ("confirm", "ask"),
    "response.history_scope": ("global", "project"),
}
DURATIONS = ("response.history_window", "history.max_age", "safety_net.keep")
SECTIONS: dict[str, dict[str, object]] = {
    "packs": PACKS_DEFAULTS,
    "response": RESPONSE_DEFAULTS,
    "history": HISTORY_DEFAULTS,
    "hook": HOOK_DEFAULTS,
    "audit": AUDIT_DEFAULTS,
    "safety_net": SAFETY_NET_DEFAULTS,
}
# What a repository's .dcg.toml may set: only ways to be stricter.
REPO_ALLOWED = frozenset({"packs.enabled"})
# Only a user-level file may relax who can approve.
USER_ONLY = frozenset({"response.confirm_requires_tty"})

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}


def parse_duration(text: str) -> int:
    """``"90s"``, ``"30m"``, ``"24h"``, ``"7d"``, ``"2w"`` → seconds."""
    t = str(text).strip().lower()
    if t and t[-1] in _UNITS and t[:-1].isdigit():
        return int(t[:-1]) * _UNITS[t[-1]]
    if t.isdigit():
        return int(t)
    raise ValueError(f"invalid duration {text!r} (use e.g. 90s, 30m, 24h, 7d)")


class Config:
    """The merged configuration. ``response`` is a :class:`~dcg.response.ResponseConfig`,
    built once the layers are merged (``response_table`` holds them while they are);
    ``history``/``hook`` are plain dicts with durations converted to seconds;
    ``problems`` lists one line per issue found.

    ``fixed`` names what the organisation's managed policy bounds (:mod:`dcg.managed`).
    ``broken`` names each config file that does not parse (``path: error at line N``):
    while any does, the mode is ``paranoid`` (decisions.md 10.5).
    ``response.packs`` holds the per-pack and per-rule modes as
    ``{selector: {"mode": mode, "source": where}}``, from ``[response.packs."SEL"]`` and
    ``[response.rules."SEL"]`` alike (graduation picks the longest matching selector).
    ``origins`` says where each ``section.key`` that is not a default came from;
    ``notices`` are one-line messages for the person (a repository's ignored keys, an
    unusable hook option), shown by the hook once per session.
    """

    __slots__ = (
        "audit",
        "broken",
        "fixed",
        "history",
        "hook",
        "notices",
        "origins",
        "packs",
        "problems",
        "quiet_rules",
        "response",
        "response_packs",
        "response_table",
        "safety_net",
        "sources",
    )

    def __init__(self) -> None:
        self.packs: list[str] = list(CORE)
        # Opt-in rules of packs that are on only by default (dcg.packs._defaults).
        self.quiet_rules: frozenset[str] = frozenset()
        self.response = ResponseConfig()
        # [response] while the layers are merged; frozen into ``response`` by load().
        self.response_table: dict[str, object] = dict(RESPONSE_DEFAULTS)
        self.response_packs: dict[str, dict[str, object]] = {}
        self.origins: dict[str, str] = {}
        # One-line messages for the person, for the hook to show once per session.
        self.notices: list[str] = []
        self.history: dict[str, object] = dict(HISTORY_DEFAULTS)
        self.hook: dict[str, object] = dict(HOOK_DEFAULTS)
        self.audit: dict[str, object] = dict(AUDIT_DEFAULTS)
        # [safety_net]: read by dcg.safety.settings.from_config.
        self.safety_net: dict[str, object] = dict(SAFETY_NET_DEFAULTS)
        self.problems: list[str] = []
        self.sources: list[str] = []
        self.broken: list[str] = []
        # What the managed policy fixed: dotted key -> how (for `dcg config`).
        self.fixed: dict[str, str] = {}


def find_repo_config(cwd: str | None) -> str | None:
    """The nearest ``.dcg.toml`` at or above ``cwd``."""
    if not cwd:
        return None
    d = os.path.abspath(cwd)
    for _ in range(64):
        candidate = os.path.join(d, ".dcg.toml")
        if os.path.isfile(candidate):
            return candidate
        parent = os.path.dirname(d)
        if parent == d:
            return None
        d = parent
    return None


def config_files(cwd: str | None, environ: Mapping[str, str]) -> list[tuple[str, str]]:
    """Existing config files as ``(kind, path)`` in merge order."""
    files = [("system", paths.system_config()), ("user", paths.user_config())]
    explicit = environ.get("DCG_CONFIG")
    if explicit:
        files.append(("explicit", explicit))
    found = [(k, p) for k, p in files if os.path.isfile(p)]
    if explicit and not os.path.isfile(explicit):
        found.append(("missing", explicit))
    repo = find_repo_config(cwd)
    if repo:
        found.append(("repo", repo))
    return found


def load(
    cwd: str | None = None,
    environ: Mapping[str, str] | None = None,
    flags: Mapping[str, object] | None = None,
) -> Config:
    """Merge every layer into one Config; never raises for bad files."""
    env = os.environ if environ is None else environ
    cfg = Config()
    layers: list[tuple[str, str, dict[str, object]]] = []
    for kind, path in config_files(cwd, env):
        if kind == "missing":
            cfg.problems.append(f"{path}: DCG_CONFIG names a file that does not exist")
            continue
        data = _read_toml(path, cfg.problems)
        if data is None:
            cfg.broken.append(cfg.problems[-1])
        else:
            layers.append((kind, path, data))
            cfg.sources.append(path)
    enabled: list[str] = []
    disabled: list[str] = []
    for kind, path, data in layers:
        _apply(cfg, kind, path, data, enabled, disabled)
    _apply_env(cfg, env, enabled)
    if flags:
        _apply_flags(cfg, flags, enabled)
    _finish(cfg, enabled, disabled)
    floor, user_allowlist = _apply_managed(cfg)
    if cfg.broken:
        # A file that does not parse may have chosen anything; read it the strictest way.
        cfg.response_table["mode"] = "paranoid"
        cfg.notices.extend(
            f"dcg: {b}; protecting in paranoid mode until it is fixed" for b in cfg.broken
        )
    cfg.response = ResponseConfig(
        cfg.response_table,
        packs=cfg.response_packs,
        mode_floor=floor,
        allowlist_user=user_allowlist,
    )
    return cfg


def _apply_managed(cfg: Config) -> tuple[str | None, bool]:
    """The organisation's floor (decisions.md 10.8), over every other layer.

    Returns the policy's mode floor (None without one) and whether the user's allowlist
    applies.
    """
    if not os.path.isfile(paths.managed_file()):
        return None, True  # the common case, without loading the module that reads it
    from dcg import managed

    policy, problem = managed.read()
    if policy is None:
        return None, True
    cfg.sources.append(paths.managed_file())
    if problem:
        cfg.problems.append(problem)
        cfg.broken.append(problem)
    before = {"response": dict(cfg.response_table), "hook": dict(cfg.hook)}
    bounds = managed.bound(policy, cfg.response_table, cfg.hook, cfg.packs, parse_duration)
    cfg.fixed.update(bounds.fixed)
    cfg.problems.extend(bounds.problems)
    # A value the policy changed comes from the policy (`dcg config` shows the layer).
    for section, old in before.items():
        for key, value in _section(cfg, section).items():
            if old.get(key, None) != value:
                cfg.origins[f"{section}.{key}"] = paths.managed_file()
    return bounds.mode_floor, bounds.user_allowlist


def _section(cfg: Config, section: str) -> dict[str, object]:
    """The mutable table of ``section`` while the layers are merged."""
    if section == "response":
        return cfg.response_table
    table: dict[str, object] = getattr(cfg, section)
    return table


def _read_toml(path: str, problems: list[str]) -> dict[str, object] | None:
    import tomllib

    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except OSError as exc:
        problems.append(f"{path}: cannot read config: {exc}")
        return None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        problems.append(f"{path}: {_where(path, exc)}: cannot read config: {exc}")
        return None


def _where(path: str, exc: Exception) -> str:
    """``line N`` of a parse error, so every message says where to fix it."""
    import re

    found = re.search(r"at line (\d+)", str(exc))
    if found:
        return f"line {found.group(1)}"
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return "line 1"
    end = getattr(exc, "start", len(data))
    line = data.count(b"\n", 0, end) + 1
    return f"line {line}"


def _suggest(word: str, options: list[str]) -> str:
    import difflib

    close = difflib.get_close_matches(word, options, n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _apply(
    cfg: Config,
    kind: str,
    path: str,
    data: dict[str, object],
    enabled: list[str],
    disabled: list[str],
) -> None:
    for section, body in data.items():
        if section not in SECTIONS:
            cfg.problems.append(
                f"{path}: unknown section [{section}]{_suggest(section, list(SECTIONS))}"
            )
            continue
        if not isinstance(body, dict):
            cfg.problems.append(f"{path}: [{section}] must be a table")
            continue
        for key, value in body.items():
            dotted = f"{section}.{key}"
            if kind == "repo" and dotted not in REPO_ALLOWED:
                cfg.problems.append(
                    f"{path}: ignoring {dotted}: a repository config may only enable packs"
                )
                # A repository that tries to relax dcg should be noticed by the person.
                cfg.notices.append(f"dcg: {cfg.problems[-1]}")
                continue
            if dotted in USER_ONLY and kind not in ("user", "system"):
                cfg.problems.append(f"{path}: ignoring {dotted}: only the user config may set it")
                continue
            if section == "audit" and kind != "system":
                cfg.problems.append(
                    f"{path}: ignoring {dotted}: only the system config or the managed policy "
                    "may set where audit records go"
                )
                continue
            if section == "response" and key in ("packs", "rules"):
                _apply_pack_modes(cfg, path, key, value)
                continue
            defaults = SECTIONS[section]
            if key not in defaults:
                cfg.problems.append(f"{path}: unknown key {dotted}{_suggest(key, list(defaults))}")
                continue
            if section == "packs":
                target = enabled if key == "enabled" else disabled
                if isinstance(value, list) and all(isinstance(v, str) for v in value):
                    target.extend(value)
                    cfg.origins[dotted] = path
                else:
                    cfg.problems.append(f"{path}: {dotted} must be a list of pack ids")
                continue
            _set(cfg, dotted, value, path)


def _apply_pack_modes(cfg: Config, path: str, key: str, value: object) -> None:
    """``[response.packs."SEL"]`` / ``[response.rules."SEL"]`` → ``response.packs``."""
    modes = cfg.response_packs
    if not isinstance(value, dict):
        cfg.problems.append(f"{path}: response.{key} must be a table of selectors")
        return
    for selector, body in value.items():
        sel = str(selector).strip()
        where = f"{path}: [response.{key}.{_quote(sel)}]"
        if not isinstance(body, dict) or body.get("mode") not in MODES:
            cfg.problems.append(f"{where} needs mode = one of {', '.join(MODES)}")
            continue
        extra = sorted(set(body) - {"mode"})
        if extra:
            cfg.problems.append(f"{where}: unknown key {extra[0]!r} (only mode)")
        problem = _check_selector(sel, rule=key == "rules")
        if problem:
            cfg.problems.append(f"{where}: {problem}")
            continue
        modes[sel] = {"mode": body["mode"], "source": path}


def _quote(selector: str) -> str:
    return f'"{selector}"'


def _check_selector(selector: str, *, rule: bool) -> str | None:
    """Why a mode selector can never match, or None. Rule names are checked by doctor."""
    from dcg.packs import all_ids

    pack_id, colon, name = selector.partition(":")
    if rule and not (colon and name):
        return "a rule selector is pack.id:rule-name (use [response.packs] for packs)"
    ids = all_ids()
    if any(p == pack_id or p.startswith(pack_id + ".") for p in ids):
        return None
    categories = sorted({p.split(".")[0] for p in ids})
    return f"no pack or category {pack_id!r}{_suggest(pack_id, [*ids, *categories])}"


def _set(cfg: Config, dotted: str, value: object, origin: str) -> None:
    section, key = dotted.split(".", 1)
    default = SECTIONS[section][key]
    target = _section(cfg, section)
    if dotted in CHOICES:
        if value not in CHOICES[dotted]:
            cfg.problems.append(f"{origin}: {dotted} must be one of {', '.join(CHOICES[dotted])}")
            if dotted == "response.mode":
                # A mode dcg cannot read counts as the strictest one (decisions.md 10.5).
                cfg.problems[-1] += "; using paranoid"
                cfg.notices.append(f"dcg: {cfg.problems[-1]}")
                target["mode"] = "paranoid"
            return
    elif section == "safety_net" and safety_problem(key, value):
        cfg.problems.append(f"{origin}: {dotted}: {safety_problem(key, value)}")
        return
    elif dotted in DURATIONS:
        try:
            parse_duration(str(value))
        except ValueError as exc:
            cfg.problems.append(f"{origin}: {dotted}: {exc}")
            return
    elif isinstance(default, bool):
        if not isinstance(value, bool):
            cfg.problems.append(f"{origin}: {dotted} must be true or false")
            return
    elif isinstance(default, int) and (
        not isinstance(value, int) or isinstance(value, bool) or value < 1
    ):
        cfg.problems.append(f"{origin}: {dotted} must be a positive integer")
        return
    elif isinstance(default, dict) and not (
        isinstance(value, dict) and all(isinstance(v, str) for v in value.values())
    ):
        cfg.problems.append(f"{origin}: {dotted} must be a table of strings")
        return
    elif isinstance(default, str) and not isinstance(value, str):
        cfg.problems.append(f"{origin}: {dotted} must be a string")
        return
    target[key] = value
    cfg.origins[dotted] = origin


_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")


def _apply_env(cfg: Config, env: Mapping[str, str], enabled: list[str]) -> None:
    details = env.get("DCG_HOOK_DETAILS", "").strip().lower()
    if details in _TRUE or details in _FALSE:
        _set(cfg, "hook.details", details in _TRUE, "DCG_HOOK_DETAILS")
    packs = env.get("DCG_PACKS")
    if packs is not None:
        enabled.clear()
        enabled.extend(p for p in packs.split(",") if p.strip())
        cfg.origins["packs.enabled"] = "DCG_PACKS"
    for var, dotted in (
        ("DCG_RESPONSE_MODE", "response.mode"),
        ("DCG_SESSION_THRESHOLD", "response.session_threshold"),
        ("DCG_HISTORY_THRESHOLD", "response.history_threshold"),
        ("DCG_CRITICAL_ALWAYS_HARD", "response.critical_always_hard"),
    ):
        raw = env.get(var)
        if raw is None or raw == "":
            continue
        value: object = raw.strip().lower()
        default = SECTIONS["response"][dotted.split(".")[1]]
        if isinstance(default, bool):
            value = True if value in _TRUE else False if value in _FALSE else value
        elif isinstance(default, int):
            value = int(raw) if raw.strip().isdigit() else raw
        _set(cfg, dotted, value, var)


def _apply_flags(cfg: Config, flags: Mapping[str, object], enabled: list[str]) -> None:
    with_packs = flags.get("with_packs")
    if with_packs:
        assert isinstance(with_packs, (list, tuple))
        enabled.extend(str(p) for p in with_packs)
        cfg.origins["packs.enabled"] = "--with-packs"
    for flag, dotted in (
        ("mode", "response.mode"),
        ("session_threshold", "response.session_threshold"),
        ("history_threshold", "response.history_threshold"),
    ):
        value = flags.get(flag)
        if value is not None:
            _set(cfg, dotted, value, f"--{flag.replace('_', '-')}")
    if flags.get("no_warnings"):
        cfg.response_table["show_warnings"] = False
        cfg.origins["response.show_warnings"] = "--no-warnings"


def _finish(cfg: Config, enabled: list[str], disabled: list[str]) -> None:
    from dcg.packs import all_ids, expand
    from dcg.packs._defaults import default_packs, opt_in_rules

    wanted, unknown = expand(enabled)
    dropped, unknown_dropped = expand(disabled)
    for sel in unknown + unknown_dropped:
        categories = sorted({p.split(".")[0] for p in all_ids()})
        cfg.problems.append(f"unknown pack {sel!r}{_suggest(sel, [*all_ids(), *categories])}")
    defaults = [p for p in default_packs(all_ids()) if p not in dropped]
    for pack_id in [*defaults, *wanted]:
        if pack_id not in cfg.packs and pack_id not in dropped:
            cfg.packs.append(pack_id)
    # Registry order, whatever order the layers named them in: which of two equally severe
    # matches a reply names must not depend on how a pack came to be enabled.
    order = {pack_id: i for i, pack_id in enumerate(all_ids())}
    cfg.packs.sort(key=lambda pack_id: order.get(pack_id, len(order)))
    cfg.quiet_rules = frozenset(r for p in defaults if p not in wanted for r in opt_in_rules(p))
    for key in DURATIONS:
        section, name = key.split(".")
        target = _section(cfg, section)
        target[name] = parse_duration(str(target[name]))


def check_files(cwd: str | None = None) -> list[str]:
    """Problems in every config file that applies here (for ``dcg doctor``)."""
    return load(cwd).problems
