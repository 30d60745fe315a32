"""Embedded code: what a script given to an interpreter executes or deletes, as shell lines.

``analyze(lang, code)`` returns, in source order, ``(via_label, shell_line)`` pairs: each
line is a shell command equivalent to something destructive-relevant the code does (a
process it runs, a file or tree it deletes). The shell parser re-parses every line and
runs it through the packs, so ``shutil.rmtree(os.path.expanduser('~'))`` is judged as
``rm -rf -- "$HOME"``. Strings that are only printed or stored are never reported.

The language modules (and ``re``/``ast``) are imported only when this runs, which is
only for interpreter commands.
"""

from __future__ import annotations

from dcg.frozen import Frozen

TYPE_CHECKING = False  # typing is not imported at run time: it costs start-up time
if TYPE_CHECKING:
    from collections.abc import Callable
    from types import ModuleType

    from dcg.embedded.actions import Sink

# Code beyond this size is not analysed (what precedes it is).
MAX_CODE = 256 * 1024

# The registry of languages: each is the module dcg.embedded.<name>, with an
# ``analyze(code, sink, depth)``. Which commands hand code to one is dcg.shell.payloads.
LANGS = ("python", "javascript", "ruby", "perl", "php")
_ALIASES = {"js": "javascript", "node": "javascript", "typescript": "javascript",
            "ts": "javascript", "py": "python", "python3": "python", "rb": "ruby",
            "pl": "perl"}  # fmt: skip


class Findings(Frozen):
    """The result of :func:`scan`: the findings, and whether the whole code was analysed."""

    __slots__ = ("calls", "complete")

    calls: tuple[tuple[str, str], ...]
    complete: bool

    def __init__(self, calls: tuple[tuple[str, str], ...], complete: bool) -> None:
        self._set("calls", calls)
        self._set("complete", complete)

    def __repr__(self) -> str:
        return f"Findings({self.calls!r}, complete={self.complete})"


def analyze(lang: str, code: str, *, deadline: float | None = None) -> list[tuple[str, str]]:
    """The ``(via_label, shell_line)`` pairs for ``code`` in ``lang``; never raises."""
    return list(scan(lang, code, deadline=deadline).calls)


def scan(lang: str, code: str, *, deadline: float | None = None) -> Findings:
    """Like :func:`analyze`, also saying whether a bound (size, work, ``deadline`` as a
    ``time.thread_time()`` value: CPU time, so a busy machine is not a complex command)
    cut the analysis short; never raises."""
    from dcg.embedded.actions import Sink
    from dcg.embedded.values import MARKERS

    sink = Sink(deadline)
    try:
        name = _ALIASES.get(lang.lower(), lang.lower())
        run = _runner(name)
        if run is None:
            return Findings((), True)
        if len(code) > MAX_CODE:
            code = code[:MAX_CODE]
            sink.complete = False
        if any(m in code for m in MARKERS):
            code = "".join(c for c in code if c not in MARKERS)
        run(code, sink, 0)
    except Exception:  # a bound was hit, or a bug: keep what was found (fail soft here,
        sink.complete = False  # the caller decides what an incomplete analysis means)
    return Findings(tuple(sink.found), sink.complete)


def _runner(name: str) -> Callable[[str, Sink, int], None] | None:
    """The ``analyze`` function of language module ``dcg.embedded.<name>``, if registered."""
    if name not in LANGS:
        return None
    # By name, from the registry above: a language is its module plus one entry in LANGS.
    module: ModuleType = __import__(f"dcg.embedded.{name}", fromlist=["analyze"])
    run: Callable[[str, Sink, int], None] = module.analyze
    return run
