"""Code whose text cannot be known before it runs: what makes a command opaque, and why.

A command is opaque when what it executes is computed at run time and dcg cannot see
it: a command word that is entirely a command substitution, decoded text piped into a
shell, a process substitution sourced or run by a shell, a shell escape in a tool fed a
computed string, an interpreter's ``system``/``exec`` of a computed string. Each becomes
one ``<opaque> WHY`` command that the ``core.shell:opaque-exec`` rule stops; ``WHY``
says what could not be seen.

Installers fetched from a URL and piped into a shell (``curl … | sh``,
``sh -c "$(curl …)"``) keep their earlier treatment: they are documented as a known
limit in the README, and stopping them would stop every documented install line.
"""

from __future__ import annotations

from dcg.shell.command import Command

TYPE_CHECKING = False  # typing itself costs milliseconds on the hook's path

if TYPE_CHECKING:
    from dcg.shell.parser import Simple
    from dcg.shell.state import Vars
    from dcg.shell.words import Token

WORD = "<opaque>"

# Programs that only fetch: their output piped into a shell is an installer, the
# documented known limit (README "Known limits").
FETCHERS = frozenset(("curl", "wget", "fetch", "http", "https", "xh", "aria2c"))
# Programs that edit files in place: sed's edit is applied, npm pkg set's too; any other
# file these write (perl -pi, ed, vim -c, patch) holds text dcg cannot know.
EDITORS = frozenset(("sed", "gsed", "perl", "ruby", "awk", "gawk", "ed", "red", "ex", "vi",
                     "vim", "nvim", "patch", "npm", "pnpm"))  # fmt: skip
# Compilers: a program built from a source the line wrote holds code dcg cannot see.
COMPILERS = frozenset(("gcc", "cc", "clang", "g++", "c++", "clang++", "tcc", "rustc", "javac",
                       "kotlinc", "swiftc", "zig", "nim", "ghc", "go", "gfortran", "fpc",
                       "ocamlopt", "dmd", "ldc2", "crystal", "mcs", "csc"))  # fmt: skip


# Substitutions that look up a path rather than compute code: `$(which python) x.py`,
# `$(brew --prefix)/bin/x` stay judged by the dynamic-command rule as before.
LOOKUPS = frozenset(
    (
        "which",
        "command",
        "type",
        "whereis",
        "realpath",
        "readlink",
        "dirname",
        "basename",
        "pwd",
        "brew",
        "xcrun",
        "pyenv",
        "rbenv",
        "nodenv",
        "asdf",
        "mise",
        "go",
        "npm",
        "yarn",
        "pnpm",
        "git",
        "python",
        "python3",
        "rustc",
        "rustup",
        "ruby",
        "gem",
        "cygpath",
        "mktemp",
    )
)


# Tools whose output is shell setup meant to be eval'd or sourced (`eval "$(ssh-agent -s)"`,
# `source <(kubectl completion bash)`): their own, documented use.
SETUP = frozenset(("ssh-agent", "direnv", "conda", "starship", "zoxide", "fnm", "opam",
                   "kubectl", "helm", "gh", "poetry", "pip", "uv", "fzf", "atuin", "jenv",
                   "goenv", "luarocks", "mamba", "micromamba", "dircolors", "keychain",
                   "gpg-agent", "register-python-argcomplete"))  # fmt: skip


def command(why: str, via: tuple[str, ...]) -> Command:
    """The finding: a pseudo-command the core.shell:opaque-exec rule matches."""
    return Command((WORD, why), via=via)


def sub_programs(tokens: list[Token]) -> list[str]:
    """The command words of the simple commands in a substitution's tokens."""
    from dcg.shell.parser import split

    names: list[str] = []
    for simple in split(tokens, 0):
        if simple.words:
            lit = simple.words[0].literal()
            names.append((lit or "").rpartition("/")[2].lower() or "?")
    return names


def computed_word(simple: Simple) -> str | None:
    """Why the command word is opaque, when it is entirely a command substitution."""
    if not simple.words:
        return None
    word = simple.words[0]
    if not word.parts or any(p[0] != "c" for p in word.parts):
        return None
    names: list[str] = []
    for _, payload in word.subs:
        if isinstance(payload, str):
            return "the command word is the output of a backquoted command"
        names.extend(sub_programs(payload))
    if names and all(n in LOOKUPS for n in names):
        return None
    if names and all(n in FETCHERS for n in names):
        return None  # an installer: see the module docstring
    shown = " | ".join(names) or "a command"
    return f"the command word is the output of $({shown}), which dcg cannot see"


def installer_subs(simple: Simple) -> bool:
    """Every substitution in the command's words only fetches (`sh -c "$(curl …)"`) or
    prints a tool's own shell setup (`eval "$(pyenv init -)"`): they keep their earlier
    treatment."""
    names: list[str] = []
    for word in simple.words:
        for _, payload in word.subs:
            if isinstance(payload, str):
                return False
            names.extend(sub_programs(payload))
    return bool(names) and all(n in FETCHERS or n in SETUP or n in LOOKUPS for n in names)


def whole_unknown(script: str, env: Vars) -> str | None:
    """``the value of $P`` when a shell script is nothing but one variable's value
    (``echo "$P" | sh``, ``sh -c "$P"``, ``eval "$P"``): what runs cannot be seen.

    A variable set on the line from a tool's own setup output (``x="$(conda shell.bash
    hook)"; eval "$x"``) is that tool's documented use, not hidden code.
    """
    t = script.strip().strip('"')
    if t[:1] != "$" or len(t) < 2:
        return None
    name = t[2:-1] if t.startswith("${") and t.endswith("}") else t[1:]
    if name in env and not env.state.origins.get(name):
        return None
    if name.replace("_", "a").isalnum() or name in ("@", "*") or name.isdigit():
        return f"the value of ${name}"
    return None


def unseen_stdin(redirects: list[tuple[str, str]], via: tuple[str, ...], env: Vars) -> bool:
    """The command reads what another part of the line writes at run time: inside an
    output process substitution (``echo … > >(bash)``), as a coprocess (``coproc bash``),
    or from a duplicated descriptor (``bash <&3``)."""
    if via[-1:] == (">(…)",) or env.state.stdin:
        return True
    return any(op in ("<&", "0<&") and path not in ("0", "-") for op, path in redirects)


# Compiled source written on the line and run: code dcg does not read. It is opaque when it
# can act beyond itself: it names a guarded tool (a pack keyword that is a word; shell
# syntax such as `[`, `*`, `<`, `$` and words every program uses are no sign), or it calls
# what runs a program or deletes a file.
_CODE_WORDS = frozenset(("let", "make", "node", "system", "local ", "task", "just", "declare",
                         "typeset", "source", "shell", "inv ", "ex ", "vi "))  # fmt: skip
_ACTIONS = ("system(", "system (", "exec", "popen", "spawn", "fork", "processbuilder",
            "getruntime", "command::new", "unlink", "rmdir", "remove", "nftw",
            "fts_open", "syscall", "dlopen", "asm", "truncate", "rename", "os/exec")  # fmt: skip
_TOOL_WORDS: dict[tuple[tuple[str, tuple[str, ...]], ...], frozenset[str]] = {}


def tool_words(keywords: tuple[tuple[str, tuple[str, ...]], ...]) -> frozenset[str]:
    """The packs' keywords (pack id, its words) that name a tool in source code: words, not
    punctuation, and not words ordinary code is made of (:data:`_CODE_WORDS`)."""
    found = _TOOL_WORDS.get(keywords)
    if found is None:
        found = _TOOL_WORDS[keywords] = frozenset(
            k for _, ks in keywords for k in ks if k[:1].isalnum() and k not in _CODE_WORDS
        )
    return found


def acts(text: str, tools: frozenset[str] | None) -> bool:
    """Whether compiled source can act beyond itself (runs a program, deletes, names a
    guarded tool of ``tools``, :func:`tool_words`; None: not known, so it may); ordinary
    code (`int a[3]`, `args[0]`, `make([]int, 3)`) does not."""
    from dcg.keywords import has_keyword, scan_text

    scan = scan_text(text)
    if tools is None or any(a in scan for a in _ACTIONS):
        return True
    return any(has_keyword(scan, k) for k in tools if k in scan)
