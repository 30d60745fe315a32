"""Where dcg keeps its configuration and state files."""

from __future__ import annotations

from dcg import oslite as os

# The environment variables dcg takes its policy from: the mode, the packs, the thresholds,
# where its configuration and state are. A command that sets or removes one for what it
# starts (a nested agent, whose dcg hook inherits it) changes dcg's protection.
POLICY_ENV = frozenset(("DCG_CONFIG", "DCG_PACKS", "DCG_RESPONSE_MODE", "DCG_SESSION_THRESHOLD",
                        "DCG_HISTORY_THRESHOLD", "DCG_CRITICAL_ALWAYS_HARD", "DCG_SYSTEM_CONFIG",
                        "DCG_SYSTEM_DIR", "DCG_SESSION_DIR"))  # fmt: skip


def home() -> str:
    """``$HOME`` when it is an absolute path other than ``/``, else the account's home
    from the password database: an empty or unset ``HOME`` must not put dcg's state
    under ``/.config`` (or the current directory)."""
    value = os.environ.get("HOME", "")
    if value.startswith("/") and value.strip("/"):
        return value
    import pwd

    try:
        return pwd.getpwuid(os.getuid()).pw_dir or "/"
    except KeyError:
        return "/"


def config_dir() -> str:
    """``$XDG_CONFIG_HOME/dcg`` or ``~/.config/dcg``: config, history, codes, allowlist."""
    xdg = os.environ.get("XDG_CONFIG_HOME", "")
    base = xdg if xdg.startswith("/") else os.path.join(home(), ".config")
    return os.path.join(base, "dcg")


def user_config() -> str:
    return os.path.join(config_dir(), "config.toml")


def system_config() -> str:
    # DCG_SYSTEM_CONFIG exists so tests never read the machine's /etc.
    explicit = os.environ.get("DCG_SYSTEM_CONFIG")
    if explicit:
        return explicit
    return os.path.join(os.environ.get("DCG_SYSTEM_DIR") or "/etc/dcg", "config.toml")


def system_dir() -> str:
    """``/etc/dcg`` or ``$DCG_SYSTEM_DIR``: system config, allowlist and managed policy."""
    return os.environ.get("DCG_SYSTEM_DIR") or os.path.dirname(system_config())


def managed_file() -> str:
    """The organisation's policy (decisions.md 10.8), written by its config management."""
    return os.path.join(system_dir(), "managed.toml")


def history_file() -> str:
    return os.path.join(config_dir(), "history.jsonl")


def pending_file() -> str:
    return os.path.join(config_dir(), "pending_confirmations.jsonl")


def allow_once_file() -> str:
    return os.path.join(config_dir(), "allow_once.jsonl")


def approval_attempts_file() -> str:
    """Wrong codes given to ``dcg confirm``/``allow-once`` and the lockout they caused."""
    return os.path.join(config_dir(), "approval_attempts.json")


def allowlist_file() -> str:
    return os.path.join(config_dir(), "allowlist.toml")


def system_allowlist_file() -> str:
    return os.path.join(system_dir(), "allowlist.toml")


def session_dir() -> str:
    """Per-user session directory (decisions.md section 2)."""
    override = os.environ.get("DCG_SESSION_DIR")
    if override:
        return override
    return f"/tmp/dcg-sessions-{os.getuid()}"


def error_log() -> str:
    """Tracebacks of internal errors go here, never to stdout."""
    return os.path.join(config_dir(), "error.log")


def snapshot_dir() -> str:
    """The safety net's snapshots (dcg.safety.store), inside dcg's protected state."""
    return os.path.join(config_dir(), "snapshots")


def project_root(cwd: str) -> str:
    """The project a directory belongs to, as history, snapshots and approvals count it:
    the nearest directory at or above ``cwd`` holding ``.git`` or ``.dcg.toml``, else cwd."""
    here = os.path.abspath(cwd)
    while True:
        if os.path.exists(os.path.join(here, ".git")) or os.path.exists(
            os.path.join(here, ".dcg.toml")
        ):
            return here
        parent = os.path.dirname(here)
        if parent == here:
            return os.path.abspath(cwd)
        here = parent
