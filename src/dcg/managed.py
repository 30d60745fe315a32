"""The organisation's managed policy: a floor that no user, repository, variable or flag lowers.

``managed.toml`` in the system directory (``/etc/dcg``, or ``$DCG_SYSTEM_DIR``) is
written by the organisation's configuration management, never by dcg (decisions.md
10.8). It is applied after every other layer:

- ``[response] mode`` is the mildest mode any layer may choose (per-pack and per-rule
  modes included: the floor is :attr:`dcg.response.ResponseConfig.mode_floor`);
- ``[response]`` thresholds are ceilings, ``history_window`` a minimum, and the
  booleans that protect (``critical_always_hard``, ``confirm_requires_tty``) cannot be
  switched off; ``high_minimum_level`` is a floor; other keys are fixed as written;
- ``[packs] enabled`` are on whatever a user disables;
- ``[allowlist] user = false`` ignores the user's allowlist (the system one applies);
- ``[hook] fail_open = false`` cannot be turned on.

Self-protection (``core.dcg``) is not a setting here either: it is a hard block at the
first try in every mode (:func:`dcg.decision.self_protected`), and the policy may not
soften it. An organisation that wants a person to let one such command through has
the human channels every user has: ``dcg allow-once`` with the code the person saw, or
an entry in the system allowlist (``/etc/dcg/allowlist.toml``, e.g. ``core.dcg:uninstall``
for its own upgrade tooling), which ``[allowlist] user = false`` leaves in force.

On the hook path this costs one ``stat`` when the file is absent. A file that does
not parse is read the strictest way: paranoid mode and no user allowlist.
"""

from __future__ import annotations

from dcg import oslite as os
from dcg import paths
from dcg.frozen import Frozen
from dcg.response import Mode

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

LEVELS = ("hard_block", "soft_block", "warning")  # strictest first
# [response] keys and how the managed value bounds the others' choice.
_CEILINGS = ("session_threshold", "history_threshold")
_TRUE_STAYS = ("critical_always_hard", "confirm_requires_tty")


class Bounds(Frozen):
    """What :func:`bound` did: what the policy fixed (dotted key -> how, for ``dcg
    config``), its problems, its mode floor (None without one) and whether the user's
    allowlist applies."""

    __slots__ = ("fixed", "mode_floor", "problems", "user_allowlist")

    fixed: dict[str, str]
    problems: list[str]
    mode_floor: str | None
    user_allowlist: bool

    def __init__(
        self,
        fixed: dict[str, str],
        problems: list[str],
        mode_floor: str | None,
        user_allowlist: bool,
    ) -> None:
        self._set("fixed", fixed)
        self._set("problems", problems)
        self._set("mode_floor", mode_floor)
        self._set("user_allowlist", user_allowlist)


def read() -> tuple[dict[str, object] | None, str | None]:
    """The policy in ``managed.toml`` (None when there is none) and a problem, if any.

    A file that does not parse is read the strictest way it can be: paranoid mode and
    no user allowlist.
    """
    path = paths.managed_file()
    if not os.path.isfile(path):
        return None, None
    import tomllib

    try:
        with open(path, "rb") as f:
            return tomllib.load(f), None
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        strictest: dict[str, object] = {
            "response": {"mode": "paranoid"},
            "allowlist": {"user": False},
        }
        return strictest, f"{path}: managed policy does not parse: {exc}"


def _table(policy: dict[str, object], name: str) -> dict[str, object]:
    table = policy.get(name)
    return table if isinstance(table, dict) else {}


def bound(
    policy: dict[str, object],
    response: dict[str, object],
    hook: dict[str, object],
    packs: list[str],
    parse_duration: Callable[[str], int],
) -> Bounds:
    """Bound the merged ``response``, ``hook`` and ``packs`` tables by ``policy``, in place;
    the floor and the allowlist's scope come back in the :class:`Bounds`."""
    path = paths.managed_file()
    fixed: dict[str, str] = {}
    problems: list[str] = []
    rules = _table(policy, "response")
    mode = rules.get("mode")
    floor: str | None = None
    if mode is not None:
        floor = str(mode) if mode in Mode.ALL else Mode.PARANOID
        response["mode"] = Mode.stricter(str(response["mode"]), floor)
        fixed["response.mode"] = f"at least {floor}"
    for key, value in rules.items():
        if key == "mode":
            continue
        current = response.get(key)
        if key in _CEILINGS and isinstance(value, int) and value >= 1:
            response[key] = min(int(str(current)), value) if current is not None else value
            fixed[f"response.{key}"] = f"at most {value}"
        elif key == "history_window":
            try:
                seconds = parse_duration(str(value))
            except ValueError:
                problems.append(f"{path}: response.history_window: invalid duration")
                continue
            response[key] = max(int(str(current or 0)), seconds)
            fixed["response.history_window"] = f"at least {value}"
        elif key in _TRUE_STAYS:
            if value is True:
                response[key] = True
                fixed[f"response.{key}"] = "true"
        elif key == "high_minimum_level" and value in LEVELS:
            chosen = str(current) if current in LEVELS else "warning"
            response[key] = LEVELS[min(LEVELS.index(chosen), LEVELS.index(str(value)))]
            fixed["response.high_minimum_level"] = f"at least {value}"
        else:
            response[key] = value
            fixed[f"response.{key}"] = repr(value)
    enabled = _table(policy, "packs").get("enabled")
    if isinstance(enabled, list):
        from dcg.packs import expand

        wanted, unknown = expand([str(p) for p in enabled])
        for sel in unknown:
            problems.append(f"{path}: unknown pack {sel!r}")
        for pack_id in wanted:
            if pack_id not in packs:
                packs.append(pack_id)
        fixed["packs.enabled"] = ", ".join(wanted)
    user_allowlist = _table(policy, "allowlist").get("user") is not False
    if not user_allowlist:
        fixed["allowlist.user"] = "false (user allowlist entries are ignored)"
    if _table(policy, "hook").get("fail_open") is False:
        hook["fail_open"] = False
        fixed["hook.fail_open"] = "false"
    return Bounds(fixed, problems, floor, user_allowlist)
