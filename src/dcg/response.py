"""The response configuration as one typed value: the graduation modes, the defaults, the floor.

Every reader of ``[response]`` (:mod:`dcg.decision`, :mod:`dcg.graduation`,
:mod:`dcg.verdicts`, :mod:`dcg.approvals`, the approval commands, ``dcg config``)
takes a :class:`ResponseConfig`; :mod:`dcg.config` builds it once, at the end of its
merge, and :mod:`dcg.managed` contributes its floor as fields rather than keys.

:class:`Mode` is the one list of modes. It is a class of constants rather than an
``enum.Enum`` and :class:`ResponseConfig` a slotted :class:`~dcg.frozen.Frozen` rather
than a dataclass: the hook imports this module on every matched call, and ``enum`` and
``dataclasses`` cost it more than a whole evaluation (``tests/test_hook_imports.py``).
"""

from __future__ import annotations

from dcg.frozen import Frozen

TYPE_CHECKING = False  # typing costs ms at start-up; type checkers treat this as True
if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping


class Mode:
    """The graduation modes (decisions.md section 1), strictest first."""

    PARANOID = "paranoid"
    STRICT = "strict"
    STANDARD = "standard"
    LENIENT = "lenient"
    ALL: tuple[str, ...] = (PARANOID, STRICT, STANDARD, LENIENT)

    @staticmethod
    def stricter(a: str, b: str) -> str:
        """The stricter of two modes; a mode dcg does not know counts as paranoid."""
        rank = {m: i for i, m in enumerate(Mode.ALL)}
        return Mode.ALL[min(rank.get(a, 0), rank.get(b, 0))]


MODES = Mode.ALL

# The draft's Appendix A, written once: ``[response]`` keys a config file may set and
# their defaults (``history_window`` in seconds; a file writes a duration such as "24h").
DEFAULTS: dict[str, object] = {
    "mode": Mode.STANDARD,
    "session_threshold": 2,
    "history_threshold": 5,
    "history_window": 86400,
    "critical_always_hard": True,
    "high_minimum_level": "warning",
    "show_warnings": True,
    "quiet_after_threshold": False,
    "log_warnings": True,
    "soft_block_action": "confirm",
    "confirm_requires_tty": True,
    "history_scope": "project",
}


class ResponseConfig(Frozen):
    """The merged ``[response]`` settings, the per-pack/per-rule modes and the policy's floor.

    ``packs`` maps a selector (``core.git``, ``core.git:push-force``, ``database``) to
    ``{"mode": mode, "source": where}``. ``mode_floor`` is the managed policy's mildest
    allowed mode (None without one); ``allowlist_user`` False when the policy ignores the
    user's allowlist. Values are read as attributes; ``response["mode"]`` and
    :meth:`as_dict` read them by key (what ``dcg config`` lists).
    """

    __slots__ = (
        "allowlist_user",
        "confirm_requires_tty",
        "critical_always_hard",
        "high_minimum_level",
        "history_scope",
        "history_threshold",
        "history_window",
        "log_warnings",
        "mode",
        "mode_floor",
        "packs",
        "quiet_after_threshold",
        "session_threshold",
        "show_warnings",
        "soft_block_action",
    )

    mode: str
    session_threshold: int
    history_threshold: int
    history_window: int
    critical_always_hard: bool
    high_minimum_level: str
    show_warnings: bool
    quiet_after_threshold: bool
    log_warnings: bool
    soft_block_action: str
    confirm_requires_tty: bool
    history_scope: str
    packs: Mapping[str, Mapping[str, object]]
    mode_floor: str | None
    allowlist_user: bool

    def __init__(
        self,
        settings: Mapping[str, object] | None = None,
        *,
        packs: Mapping[str, Mapping[str, object]] | None = None,
        mode_floor: str | None = None,
        allowlist_user: bool = True,
    ) -> None:
        given = settings or {}
        for key, default in DEFAULTS.items():
            value = given.get(key)
            value = default if value is None else value
            if isinstance(default, int) and not isinstance(default, bool):
                value = int(str(value))
            self._set(key, value)
        self._set("packs", dict(packs or {}))
        self._set("mode_floor", mode_floor or None)
        self._set("allowlist_user", allowlist_user)

    @classmethod
    def of(cls, value: ResponseConfig | Mapping[str, object] | None) -> ResponseConfig:
        """``value`` itself, or a table of ``[response]`` keys read with the defaults.

        A table may carry ``packs``, ``mode_floor`` and ``allowlist_user`` as keys.
        """
        if isinstance(value, ResponseConfig):
            return value
        table = value or {}
        packs = table.get("packs")
        floor = table.get("mode_floor")
        return cls(
            table,
            packs=packs if isinstance(packs, dict) else None,
            mode_floor=str(floor) if floor else None,
            allowlist_user=table.get("allowlist_user") is not False,
        )

    def __getitem__(self, key: str) -> object:
        if key not in self.__slots__:
            raise KeyError(key)
        return getattr(self, key)

    def keys(self) -> Iterator[str]:
        """The settings, then ``packs``; the policy's fields only where it set them."""
        yield from DEFAULTS
        yield "packs"
        if self.mode_floor is not None:
            yield "mode_floor"
        if not self.allowlist_user:
            yield "allowlist_user"

    def as_dict(self) -> dict[str, object]:
        return {key: self[key] for key in self.keys()}

    def __repr__(self) -> str:
        return f"ResponseConfig({self.as_dict()!r})"

    def mode_for(self, rule_id: str) -> str:
        """The mode for a rule: the longest matching selector in ``packs``, else ``mode``,
        never milder than ``mode_floor``.

        A selector matches the rule id itself, its pack (``core.git``) or any id prefix
        ending at a ``.`` (``core``, ``database``).
        """
        best, best_len = self.mode, -1
        for sel, table in self.packs.items():
            if len(sel) <= best_len or "mode" not in table:
                continue
            if rule_id == sel or rule_id.startswith(sel + ":") or rule_id.startswith(sel + "."):
                best, best_len = str(table["mode"]), len(sel)
        return best if self.mode_floor is None else Mode.stricter(best, self.mode_floor)
