"""The decision engine: keyword prefilter, parse once, match every simple command on its own."""

from __future__ import annotations

from dcg.frozen import Frozen
from dcg.keywords import BRACE as BRACE
from dcg.keywords import has_keyword as has_keyword
from dcg.keywords import mentions
from dcg.keywords import scan_text as scan_text
from dcg.packs import KEYWORDS, load

# typing is not imported at run time: it costs more than the hook's whole budget.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from re import Pattern

    from dcg.model import Match, Pack, Rule
    from dcg.shell.command import Command
    from dcg.shell.limits import Files

# Packs tried on every parsed simple command, without the per-command keyword gate: dcg's
# self-protection judges paths after `cd` and glob expansion, which the keywords of the
# command's own text cannot see (`cd ~/.config/dcg && echo x >> allowlist.toml`).
_EVERY_COMMAND = frozenset(("core.dcg",))


# JSON's one-letter escapes and what they stand for in the decoded text.
_JSON_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "/": "/", '"': '"'}


def unescape_json(text: str) -> str:
    """Undo one level of JSON string escaping everywhere in ``text``.

    Applied to a whole payload this turns every string into its decoded value (the
    structure between strings is left as it is), so keyword positions in the result
    are those of the decoded command. Invalid escapes are kept, never raise: the
    result only feeds the keyword scan. Lone surrogates from ``\\uD800``-style
    escapes stay as they are; they are never alphanumeric, so they cannot hide the
    start of a word.
    """
    i = text.find("\\")
    if i < 0:
        return text
    out: list[str] = []
    start = 0
    n = len(text)
    while i >= 0:
        out.append(text[start:i])
        c = text[i + 1 : i + 2]
        if c == "\\":
            out.append("\\")
            start = i + 2
        elif c in _JSON_ESCAPES:
            out.append(_JSON_ESCAPES[c])
            start = i + 2
        elif c == "u" and i + 6 <= n:
            try:
                out.append(chr(int(text[i + 2 : i + 6], 16)))
                start = i + 6
            except ValueError:
                out.append("\\")
                start = i + 1
        else:
            out.append("\\")
            start = i + 1
        i = text.find("\\", start)
    out.append(text[start:])
    return "".join(out)


def payload_scan(raw: str) -> str:
    """The keyword-scan text of a raw hook payload, sound for every decoded string in it.

    Scanning the raw JSON would miss a keyword after an escaped newline or tab
    (``"cd x\\ngit reset --hard"``): stripping the backslash glues the ``n`` to the
    word. Each JSON level is decoded before the scan instead. Copilot CLI nests the
    command in a JSON string (``toolArgs``), so a second level is decoded too and both
    readings are scanned: for a one-level payload the first reading holds the command
    exactly, for a two-level one the second does. Backslashes left after that are the
    shell's own, which :func:`scan_text` removes as the engine does.
    """
    once = unescape_json(raw)
    if once is raw:
        return scan_text(raw)
    text = scan_text(once)
    if "\\" in once:
        text += "\n" + scan_text(unescape_json(once))
    return text


def mentions_powershell(text: str) -> bool:
    """The (scan-normalised) text may run PowerShell, whose commands need translating."""
    return "powershell" in text or "pwsh" in text


def candidate_packs(text: str, pack_ids: Sequence[str]) -> list[str]:
    """Enabled packs with at least one keyword in the (scan-normalised) text."""
    return [p for p in pack_ids if mentions(text, KEYWORDS[p])]


_compiled: dict[str, Pattern[str]] = {}


def compiled(pattern: str) -> Pattern[str]:
    """Compile a pattern on first use.

    Importing ``re`` costs half a bare interpreter start, so the compiled form of every
    pattern dcg has used is kept in a cache (see :mod:`dcg.recache`) and rebuilt with
    ``_sre`` directly; ``re`` is imported only for a pattern the cache does not have.
    """
    rx = _compiled.get(pattern)
    if rx is None:
        from dcg import recache

        rx = _compiled[pattern] = recache.compile(pattern)
    return rx


class Evaluation(Frozen):
    """Everything the engine found for one command line.

    ``matches`` are ordered most severe first; ``considered`` are the packs whose
    keywords occurred; ``commands`` the parsed simple commands (empty when no pack was
    considered, because then nothing was parsed).
    """

    __slots__ = ("commands", "considered", "excused", "line", "matches", "unread")

    line: str
    commands: tuple[Command, ...]
    matches: tuple[Match, ...]
    considered: tuple[str, ...]
    excused: tuple[tuple[str, Command], ...]
    # Project scripts a parsing bound stopped reading (what was read is judged).
    unread: tuple[str, ...]

    def __init__(
        self,
        line: str,
        commands: tuple[Command, ...] = (),
        matches: tuple[Match, ...] = (),
        considered: tuple[str, ...] = (),
        excused: tuple[tuple[str, Command], ...] = (),
        unread: tuple[str, ...] = (),
    ) -> None:
        self._set("line", line)
        self._set("commands", commands)
        self._set("matches", matches)
        self._set("considered", considered)
        self._set("excused", excused)
        self._set("unread", unread)

    @property
    def top(self) -> Match | None:
        return self.matches[0] if self.matches else None


def parse_line(
    line: str,
    shell: str,
    deadline: float | None,
    cwd: str | None = None,
    files: Files | None = None,
) -> list[Command]:
    """The line's simple commands; a parse under a CPU deadline runs without cyclic
    garbage collection (one full collection in a long-lived process such as ``dcg scan``
    or a test session can cost more than the whole budget; see :func:`dcg.hook.main`)."""
    import gc

    collecting = deadline is not None and gc.isenabled()
    if collecting:
        gc.disable()
    try:
        if shell == "powershell":
            from dcg.shell import parse_powershell

            return parse_powershell(line, deadline=deadline, cwd=cwd)
        from dcg.shell import parse

        return parse(line, deadline=deadline, cwd=cwd, files=files)
    finally:
        if collecting:
            gc.enable()


def script_files(cwd: str | None, pack_ids: Sequence[str]) -> Files:
    """File access for a parse: scripts are judged only when their text has a keyword."""
    from dcg.shell.limits import Files

    def wanted(text: str) -> bool:
        scan = scan_text(text)
        return bool(candidate_packs(scan, pack_ids)) or mentions_powershell(scan)

    from dcg.packs import KEYWORDS
    from dcg.shell.opaque import tool_words

    return Files(cwd, wanted, tool_words(tuple(KEYWORDS.items())))


def own_cwd(cwd: str) -> bool:
    """``cwd`` is inside one of dcg's real directories (its state, config or program).

    Only such a directory makes a keyword-free line worth parsing: a project folder that
    merely has "dcg" in its name is not dcg's, and the hook's cost and verdict must not
    depend on what the project is called.
    """
    if not candidate_packs(scan_text(cwd), ("core.dcg",)):
        return False  # every directory of dcg's is named so (…/dcg, dcg-sessions-…)
    from dcg import selfpaths

    here = selfpaths.normalise(cwd, "/")
    return any(
        here == d or here.startswith(d.rstrip("/") + "/")
        for d in (*selfpaths.state_dirs(), *selfpaths.program_paths())
    )


def evaluate(
    line: str,
    pack_ids: list[str] | tuple[str, ...],
    *,
    cwd: str | None = None,
    shell: str = "bash",
    deadline: float | None = None,
    quiet_rules: frozenset[str] = frozenset(),
    read_files: bool = False,
) -> Evaluation:
    """Evaluate a command line against the enabled packs.

    ``quiet_rules`` are rule ids left out (opt-in rules of packs on only by default).
    With ``read_files`` the script files, package scripts and recipes the line runs are
    read (relative to ``cwd``) and judged too; ``dcg scan`` reads those files itself.

    Raises ``dcg.shell.TooComplex`` when the line exceeds a parsing bound; the caller
    decides (the hook stops such a line when a keyword of an enabled pack occurs).
    """
    text = scan_text(line)
    considered = candidate_packs(text, pack_ids)
    if cwd and not considered and "core.dcg" in pack_ids and own_cwd(cwd):
        # A relative write inside dcg's own directory names no keyword but the cwd.
        considered = ["core.dcg"]
    # PowerShell names (Remove-Item, ri, del…) differ from the POSIX keywords the packs
    # use; such a line is always parsed, and keywords are checked on the translation.
    if not considered and shell != "powershell" and not mentions_powershell(text):
        return Evaluation(line)
    # Imported here, not at the top: a line without a keyword never needs the rule model.
    from dcg.model import SEVERITY_RANK, Match

    files = script_files(cwd, pack_ids) if read_files else None
    commands = parse_line(line, shell, deadline, cwd, files)
    if deadline is not None and files is not None:
        deadline += files.earned  # the project files read earned the line time
    if deadline is not None:
        _check_deadline(deadline)
    varied = any(c.dynamic for c in commands)
    if varied:  # `git reset $NOPE--hard`: dcg.unsetvars
        from dcg.unsetvars import variants

        commands = [*commands, *variants(commands)]
    if "core.dcg" in pack_ids:
        from dcg.selfguard import begin_line

        begin_line(commands, cwd)
    matches: list[Match] = []
    excused: list[tuple[str, Command]] = []
    # Pack keywords are checked again per simple command: a nested or wrapped command
    # may carry the keyword the whole line had, and other commands need not be tried.
    here = cwd
    # Only packs with a keyword somewhere in the commands' texts can match one of them:
    # one scan of all texts, then each command is tried for those few (a line of 10,000
    # harmless commands costs one pass, not 10,000 scans per pack).
    texts = [c.text.lower() for c in commands]
    joined = "\n".join(texts)
    tried = [p for p in pack_ids if p in _EVERY_COMMAND or mentions(joined, KEYWORDS[p])]
    # Where the last cd went, when the walker's reading of it (Command.cwd) agrees with this
    # one: a command the walker marks cwd_sure runs there (`cd /tmp && rm -rf x`). A cd
    # the walker did not follow (`eval 'cd -'`, `builtin cd -`) disagrees and clears it.
    sure_at: str | None = None
    for command, ctext in zip(commands, texts, strict=True):
        if command.argv[:1] in (("cd",), ("pushd",), ("popd",)) and not _in_subshell(command):
            here = _moved(command.argv, here)
            sure_at = here if _sure_dir(command.cwd, cwd) == here else None
        if command.cwd and command.cwd != ctext:  # `cd .git/refs && rm x`: the place counts
            ctext = f"{ctext} {command.cwd.lower()}"
        sure = sure_at if command.cwd_sure and _sure_dir(command.cwd, cwd) == sure_at else None
        # Checks that read Command.cwd themselves (self-protection) get it as the cwd.
        probe = _placed(command) if sure else command
        for pack_id in tried:
            if pack_id not in _EVERY_COMMAND and not mentions(ctext, KEYWORDS[pack_id]):
                continue
            pack = load(pack_id)
            if pack.safe and any(compiled(s).search(command.text) for s in pack.safe):
                excused.append((pack_id, command))
                continue
            # A cd that certainly took effect: the command runs there and nowhere else.
            where, moved = (sure, None) if sure else (cwd, here)
            rule = match_rule(pack, probe, ctext, where, quiet_rules, moved)
            if rule is not None:
                matches.append(Match(pack, rule, command))
        if deadline is not None:
            _check_deadline(deadline)
    if varied:  # a variant's match adds nothing when its command as written matched too
        from dcg.unsetvars import VIA

        plain = {m.rule_id for m in matches if VIA not in m.command.via}
        matches = [m for m in matches if VIA not in m.command.via or m.rule_id not in plain]
    matches.sort(key=lambda m: -SEVERITY_RANK[m.rule.severity])
    unread = tuple(files.unread) if files is not None else ()
    return Evaluation(
        line, tuple(commands), tuple(matches), tuple(considered), tuple(excused), unread
    )


# Labels of substitutions (``$(…)``, ```…```, ``<(…)``, ``>(…)``): a subshell of its own.
_SUBSHELLS = ("$(", "`", "<(", ">(")


def _in_subshell(command: Command) -> bool:
    """A ``cd`` inside a command substitution moves only that subshell, not the line."""
    return any(v.startswith(_SUBSHELLS) for v in command.via)


def _moved(argv: tuple[str, ...], cwd: str | None) -> str:
    """The directory after ``cd DIR``: later targets are also judged there.

    A destination dcg cannot know (``cd -``, ``popd``, ``cd "$X"``) becomes ``/``, so
    that relative targets after it are judged as the worst case, never as project output.
    """
    from dcg.oslite import environ
    from dcg.oslite import path as posixpath
    from dcg.targets import home

    args = [a for a in argv[1:] if a not in ("-L", "-P", "--")]
    if argv[0] == "popd" or len(args) > 1:
        return "/"
    if not args or args[0] == "~":
        return home()
    dest = args[0]
    if dest.startswith("~/"):
        dest = home() + dest[1:]
    for token in ("$TMPDIR", "${TMPDIR}"):  # the agent's, as the walker reads it
        tmp = environ.get("TMPDIR", "")
        if dest.startswith(token) and dest[len(token) : len(token) + 1] in ("", "/") and tmp:
            dest = tmp.rstrip("/") + dest[len(token) :]
    if dest == "-" or any(c in dest for c in "$`*?[~"):
        return "/"
    return posixpath.normpath(posixpath.join(cwd or "/", dest))


def _placed(command: Command) -> Command:
    """``command`` with its cd applied: run in the directory the rule checks are given."""
    from dcg.shell.command import Command as Made

    c = command
    return Made(c.argv, words=c.words, data=c.data, redirects=c.redirects, stdin=c.stdin,
                   via=c.via, dynamic=c.dynamic, raw=c.raw)  # fmt: skip


def _sure_dir(where: str | None, cwd: str | None) -> str | None:
    """The directory a command certainly runs in, from the walker's cd (``Command.cwd``)."""
    from dcg.oslite import path as posixpath
    from dcg.targets import home

    if not where or not cwd:
        return None
    for token in ("${HOME}", "$HOME", "~"):
        if where == token or where.startswith(token + "/"):
            where = home() + where[len(token) :]
    if "$" in where or "`" in where or "\x00" in where:
        return None
    return posixpath.normpath(posixpath.join(cwd, where))


def _check_deadline(deadline: float) -> None:
    import time

    if time.thread_time() > deadline:
        from dcg.shell import TooComplex

        raise TooComplex("time budget exceeded")


# The rules of a pack whose keywords and pattern match a command's text: a pure function
# of the texts, kept so that a line repeating a command (10,000 × `git status`) pays for
# the keyword and pattern tests once. Bounded; keyed by the pack object itself.
_TEXT_MATCHES: dict[tuple[Pack, str, str], tuple[Rule, ...]] = {}
_MEMO_TEXT = 2048


def _by_text(pack: Pack, ctext: str, text: str) -> tuple[Rule, ...]:
    key = (pack, ctext, text)
    found = _TEXT_MATCHES.get(key)
    if found is None:
        found = tuple(
            rule
            for rule in pack.rules
            if (not rule.keywords or mentions(ctext, rule.keywords))
            and compiled(rule.pattern).search(text)
        )
        if len(ctext) + len(text) <= _MEMO_TEXT:  # a long process keeps no long texts
            if len(_TEXT_MATCHES) >= 4096:
                _TEXT_MATCHES.clear()
            _TEXT_MATCHES[key] = found
    return found


def match_rule(
    pack: Pack,
    command: Command,
    ctext: str,
    cwd: str | None,
    quiet_rules: frozenset[str] = frozenset(),
    moved: str | None = None,
) -> Rule | None:
    """The first rule of ``pack`` that matches ``command``, if any.

    ``moved`` is the directory a ``cd`` earlier in the line went to. A check then holds
    if it holds in either directory: the ``cd`` may have failed (``cd /tmp/x; rm -rf src``
    runs in the original one), so a move can make a decision stricter, never milder.
    """
    for rule in _by_text(pack, ctext, command.text):
        if quiet_rules and pack.rule_id(rule) in quiet_rules:
            continue
        if rule.check is not None and not (
            rule.check(command, cwd or "")
            or (moved is not None and moved != cwd and rule.check(command, moved))
        ):
            continue
        return rule
    return None
