"""The walker's own facts about a line, typed, carried with its variable table."""

from __future__ import annotations

# Facts that, once true, stay true in their variable scope: a branch that may run keeps
# them, a subshell's are lost, a function body's hold after each call of the function.
MONOTONE = (
    "aliases",
    "bash_env_judged",
    "enabled",
    "integers",
    "namerefs",
    "nocase",
    "pre_commit",
    "undecided",
)
# Tables of facts by name: each entry is scoped like a variable (None: unknown after a
# branch that may run gave it another value).
TABLES = (
    "alias_defs",
    "arrays",
    "choices",
    "files",
    "git_settings",
    "hashes",
    "in_alias",
    "int_vars",
    "made",
    "moved",
    "origins",
    "outputs",
    "pins",
    "refs",
    "unset",
)
# Shell state the walker keeps in the variable table itself, because bash scopes it exactly
# like a variable (a subshell's cd is lost with it; bash's own PWD is a variable): where
# `cd` went ("\x00?": unknown), the payload's cwd, the positional parameters ("\x00@" all,
# "\x00@N" the Nth). NUL-prefixed: no shell name can collide.
CWD = "\x00cwd"
BASE = "\x00base"
POSITIONAL = "\x00@"
UNKNOWN_CWD = "\x00?"
# Facts about the disk: what a subshell, a branch or a function body did to them stays.
DISK = ("files", "made", "moved")


class WalkerState:
    """What the walker knows beyond variables' values. Scoped like the variables: a
    subshell's copy is dropped when it ends (see :mod:`dcg.shell.flow`)."""

    __slots__ = (
        "alias_defs",
        "aliases",
        "arrays",
        "bash_env_judged",
        "call_walked",
        "choices",
        "covering",
        "cwd_sure",
        "decided",
        "enabled",
        "feed",
        "files",
        "git_settings",
        "hashes",
        "in_alias",
        "in_function",
        "int_vars",
        "integers",
        "made",
        "moved",
        "namerefs",
        "nocase",
        "npm_bin",
        "origins",
        "outputs",
        "pins",
        "pre_commit",
        "refs",
        "runs",
        "stdin",
        "undecided",
        "unset",
    )

    def __init__(self) -> None:
        self.in_function: str | None = None  # the function whose body a call walks
        # The function whose call the last command was, when its body was walked with
        # the call's arguments (dcg.shell.cases): its effects are in the table already.
        self.call_walked: str | None = None
        # Branches skipped because a condition was decided (dcg.shell.conds), one counter
        # shared by every copy: a function call whose judging depended on values.
        self.decided: list[int] = [0]
        self.stdin = False  # a coprocess holds this shell's input (dcg.shell.opaque)
        # What this shell's input carries, for `… | sh -c '…'`: (the words of the command
        # whose output it is, its text when known) (dcg.shell.gitstream).
        self.feed: tuple[tuple[str, ...], str | None] | None = None
        self.npm_bin = False  # a package script's words: node_modules/.bin names run
        self.aliases = False  # the line defined an alias (the cheap test in walk)
        self.bash_env_judged = False  # BASH_ENV already judged (dcg.shell.startup)
        self.integers = False  # some variable is declared -i (the cheap test in walk)
        self.namerefs = False  # the line declared a nameref (the cheap test in words)
        self.nocase = False  # shopt -s nocasematch
        # Conditions are no longer decided (dcg.shell.conds): `enable` ran (a builtin test
        # may be off), or a command set variables the walker does not follow (`eval` of an
        # unknown text, `shopt -s lastpipe`, a source not read).
        self.enabled = False
        self.undecided = False
        # A function call read for every value at once (dcg.shell.cases): for its body only.
        self.covering = False
        self.pre_commit = False  # `pre-commit install` ran: `git commit` runs the hooks
        self.git_settings: dict[str, str | None] = {}  # `git config KEY VALUE` on the line
        self.hashes: dict[str, str | None] = {}  # `hash -p PATH NAME`: NAME runs PATH
        self.int_vars: dict[str, str | None] = {}  # declared -i: assignments do arithmetic
        # Why a variable's value is unknown: the output of a command, input read.
        self.origins: dict[str, str | None] = {}
        # `p=$(git diff)`: the words of the command whose output the variable holds
        # (NUL-joined), for a patch applied from "$p" later (dcg.shell.gitstream).
        self.outputs: dict[str, str | None] = {}
        # Arrays set on the line: name -> ``key\x1evalue`` entries joined by ``\x1f``
        # (dcg.shell.params.get_array); None: an array whose elements are unknown.
        self.arrays: dict[str, str | None] = {}
        # A variable left unknown by branches, each of which gave it a known value: name ->
        # those values joined by ``\x1f`` (dcg.shell.choices).
        self.choices: dict[str, str | None] = {}
        self.refs: dict[str, str | None] = {}  # `declare -n r=x`: r -> x ("" : no target yet)
        self.unset: dict[str, str | None] = {}  # names `unset` removed (${v-x} gives x)
        self.alias_defs: dict[str, str | None] = {}  # `alias NAME=VALUE` on the line
        self.in_alias: dict[str, str | None] = {}  # aliases being expanded (none expands in itself)
        # Names whose value no later command changes: readonly values, and names a trap
        # action may assign (unknown: "\x00?") (dcg.shell.bashvars.pin).
        self.pins: dict[str, str | None] = {}
        # Paths an `mv`, `ln -s`, `git mv`, `mount --bind`… on the line made stand for
        # others: destination -> sources joined by ``\x1f`` (dcg.shell.linefiles).
        self.moved: dict[str, str | None] = {}
        # What each file written on the line was made from: path -> the words the command
        # that wrote it read, joined by ``\x1f`` (dcg.shell.pername).
        self.made: dict[str, str | None] = {}
        # What a file written or edited earlier on the line holds: path (as written, and
        # normalised) -> its text, or a marker ("\x00copy:SRC", an edit, a download, a
        # compiled program…), None when it cannot be known (dcg.shell.linefiles).
        self.files: dict[str, str | None] = {}
        self.runs: str | None = None  # code an expansion runs, for the walker to judge
        # The directory (the table's cwd entry) a cd certainly reached: the commands run
        # only if it did (`cd D && …`), or D existed and nothing before could change that.
        self.cwd_sure: str | None = None

    def load(self, other: WalkerState) -> None:
        """Take ``other``'s facts (restore a snapshot); tables are copied, not shared.

        Written out slot by slot: a pipeline of 10,000 commands snapshots and restores
        the state twice per command, and a loop of ``setattr`` costs five times as much
        (tests/shell/test_walker_state.py checks that every slot is here)."""
        self.alias_defs = dict(other.alias_defs) if other.alias_defs else {}
        self.aliases = other.aliases
        self.arrays = dict(other.arrays) if other.arrays else {}
        self.bash_env_judged = other.bash_env_judged
        self.call_walked = other.call_walked
        self.choices = dict(other.choices) if other.choices else {}
        self.covering = other.covering
        self.cwd_sure = other.cwd_sure
        self.decided = other.decided
        self.enabled = other.enabled
        self.feed = other.feed
        self.files = dict(other.files) if other.files else {}
        self.git_settings = dict(other.git_settings) if other.git_settings else {}
        self.hashes = dict(other.hashes) if other.hashes else {}
        self.in_alias = dict(other.in_alias) if other.in_alias else {}
        self.in_function = other.in_function
        self.int_vars = dict(other.int_vars) if other.int_vars else {}
        self.integers = other.integers
        self.made = dict(other.made) if other.made else {}
        self.moved = dict(other.moved) if other.moved else {}
        self.namerefs = other.namerefs
        self.nocase = other.nocase
        self.npm_bin = other.npm_bin
        self.origins = dict(other.origins) if other.origins else {}
        self.outputs = dict(other.outputs) if other.outputs else {}
        self.pins = dict(other.pins) if other.pins else {}
        self.pre_commit = other.pre_commit
        self.refs = dict(other.refs) if other.refs else {}
        self.runs = other.runs
        self.stdin = other.stdin
        self.undecided = other.undecided
        self.unset = dict(other.unset) if other.unset else {}

    def copy(self) -> WalkerState:
        new = WalkerState()
        new.load(self)
        return new

    def gained(self, before: WalkerState) -> tuple[str, ...]:
        """The monotone facts true now that were not in ``before``."""
        return tuple(n for n in MONOTONE if getattr(self, n) and not getattr(before, n))

    def table(self, name: str) -> dict[str, str | None]:
        table: dict[str, str | None] = getattr(self, name)
        return table

    def gain(self, names: tuple[str, ...]) -> None:
        for name in names:
            setattr(self, name, True)


class Vars(dict[str, "str | None"]):
    """The variable table (name -> value, None: unknown) and the walker's facts."""

    __slots__ = ("state",)

    def __init__(self, values: dict[str, str | None] | None = None) -> None:
        super().__init__(values or {})
        self.state = WalkerState()

    def __setitem__(self, key: str, value: str | None) -> None:
        if self.state.choices:
            self.state.choices.pop(key, None)  # the values it might hold no longer hold
        dict.__setitem__(self, key, value)

    def update(self, *args: object, **kwargs: str | None) -> None:
        new: dict[str, str | None] = dict(*args, **kwargs)
        if self.state.choices:
            for key in new:
                self.state.choices.pop(key, None)
        dict.update(self, new)

    def copy(self) -> Vars:
        new = Vars(self)
        new.state.load(self.state)
        return new
