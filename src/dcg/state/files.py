"""Safe state files: private modes, no symlinks, locked rewrites and unsplittable appends.

Every state file is 0600 in a 0700 directory, whatever the umask. Appends are one
``os.write`` of one complete line on an ``O_APPEND`` descriptor, so concurrent hooks
cannot interleave records. Read-modify-write holds an exclusive ``flock`` on the file
itself and replaces it with ``os.replace``; because a replace swaps the inode under
anyone waiting for the lock, every locker re-checks after locking that the path still
names the inode it holds and starts over otherwise.
"""

from __future__ import annotations

import fcntl
import stat

from dcg import oslite as os

TYPE_CHECKING = False  # typing costs ms at start-up; type checkers treat this as True

if TYPE_CHECKING:
    from collections.abc import Callable

try:
    from _sha256 import sha256 as _sha256  # type: ignore[import-not-found, unused-ignore]
except ImportError:  # pragma: no cover - Python >= 3.12 merged the module
    from _sha2 import sha256 as _sha256  # type: ignore[import-not-found, no-redef, unused-ignore]

_FLAGS = os.O_NOFOLLOW | os.O_CLOEXEC
_checked_dirs: set[str] = set()
_notes: list[str] = []
_said: set[str] = set()


class StateError(OSError):
    """A state location that must not be used (symlink, foreign owner, not a directory)."""


def sha256_hex(data: bytes) -> str:
    """Hex sha256 without importing ``hashlib`` (which loads OpenSSL)."""
    return str(_sha256(data).hexdigest())


def note(message: str) -> None:
    """Remember a one-line notice about state for the caller to show (once per process)."""
    if message not in _said:
        _said.add(message)
        _notes.append(message)


def once_per_session(notices: list[str], agent: str, session_id: str | None) -> str:
    """The notices not yet shown in this agent session, as stderr text; marks them shown.

    The marks live in the session directory. Where it cannot be written every notice is
    shown every time: saying too much is better than hiding why dcg decided as it did.
    """
    from dcg import paths

    fresh = list(dict.fromkeys(notices))
    try:
        directory = paths.session_dir()
        key = sha256_hex(f"{agent}\0{session_id or ''}".encode())[:16]
        path = os.path.join(directory, f"notices-{key}")
        seen = set(read_bytes(path).decode("ascii", "replace").splitlines())
        digests = {n: sha256_hex(n.encode())[:16] for n in fresh}
        fresh = [n for n in fresh if digests[n] not in seen]
        if fresh:
            append_line(path, "\n".join(digests[n] for n in fresh))
    except OSError:
        pass
    return "".join(n + "\n" for n in fresh)


def take_notes() -> list[str]:
    """Return and forget the notices collected so far."""
    out = list(_notes)
    _notes.clear()
    return out


def ensure_dir(path: str) -> None:
    """Create ``path`` as a private directory, or check that the existing one is ours."""
    if path in _checked_dirs:
        return
    try:  # it exists on every call but the first: one system call
        st = os.lstat(path)
    except FileNotFoundError:
        # The mode applies to the leaf; chmod below makes it umask-proof.
        os.makedirs(path, 0o700, exist_ok=True)
        st = os.lstat(path)
    if stat.S_ISLNK(st.st_mode):
        raise StateError(f"{path} is a symlink; refusing to use it")
    if not stat.S_ISDIR(st.st_mode):
        raise StateError(f"{path} is not a directory")
    if st.st_uid != os.getuid():
        raise StateError(f"{path} is owned by another user; refusing to use it")
    if stat.S_IMODE(st.st_mode) != 0o700:
        os.chmod(path, 0o700)
    _checked_dirs.add(path)


def _check_fd(fd: int, path: str) -> os.stat_result:
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        raise StateError(f"{path} is not a regular file")
    if st.st_uid != os.getuid():
        raise StateError(f"{path} is owned by another user; refusing to use it")
    if stat.S_IMODE(st.st_mode) != 0o600:
        os.fchmod(fd, 0o600)
    return st


def open_private(path: str, flags: int) -> int:
    """Open a state file (created 0600) refusing symlinks and files of other users."""
    try:
        fd = os.open(path, flags | _FLAGS, 0o600)
    except OSError as exc:
        if exc.errno == 40:  # ELOOP: the final component is a symlink
            raise StateError(f"{path} is a symlink; refusing to use it") from None
        raise
    try:
        _check_fd(fd, path)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _open_locked(path: str, flags: int, lock: int) -> int:
    """Open and lock ``path``, retrying if it was replaced while we waited for the lock."""
    while True:
        fd = open_private(path, flags)
        try:
            fcntl.flock(fd, lock)
            try:
                same = os.stat(path).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
        except BaseException:
            os.close(fd)
            raise
        if same:
            return fd
        os.close(fd)


def append_line(path: str, line: str) -> None:
    """Append one record line with a single write (shared lock: rewrites wait)."""
    data = line.encode() if line.endswith("\n") else (line + "\n").encode()
    ensure_dir(os.path.dirname(path))
    fd = _open_locked(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, fcntl.LOCK_SH)
    try:
        written = os.write(fd, data)
        if written != len(data):
            raise OSError(f"short write to {path}")
    finally:
        os.close(fd)


def read_bytes(path: str) -> bytes:
    """The whole file, or ``b""`` when it does not exist."""
    try:
        fd = open_private(path, os.O_RDONLY)
    except FileNotFoundError:
        return b""
    try:
        return _read_all(fd)
    finally:
        os.close(fd)


def read_shared(path: str) -> bytes:
    """The whole file under a shared lock (so never half a rewrite), or ``b""``."""
    try:
        fd = _open_locked(path, os.O_RDONLY, fcntl.LOCK_SH)
    except FileNotFoundError:
        return b""
    try:
        return _read_all(fd)
    finally:
        os.close(fd)


def _read_all(fd: int) -> bytes:
    chunks: list[bytes] = []
    while True:
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def write_replace(path: str, data: bytes, mode: int = 0o600) -> None:
    """Write ``data`` to a private temp file beside ``path`` and rename it over ``path``.

    ``mode`` other than 0600 is for files other users must read (the system allowlist).
    """
    tmp = f"{path}.tmp.{os.getpid()}"
    fd = open_private(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    except BaseException:
        os.close(fd)
        os.unlink(tmp)
        raise
    if mode != 0o600:
        os.fchmod(fd, mode)
    os.close(fd)
    os.replace(tmp, path)


def rewrite(path: str, change: Callable[[bytes], bytes | None]) -> bytes | None:
    """Read-modify-write under an exclusive lock.

    ``change`` gets the current content and returns the new content, or None to leave
    the file alone. Returns what ``change`` returned.
    """
    ensure_dir(os.path.dirname(path))
    fd = _open_locked(path, os.O_RDWR | os.O_CREAT, fcntl.LOCK_EX)
    try:
        new = change(_read_all(fd))
        if new is not None:
            write_replace(path, new)
        return new
    finally:
        os.close(fd)


def mtime(path: str) -> float | None:
    try:
        return os.stat(path).st_mtime
    except OSError:
        return None


def touch(path: str) -> None:
    """Create or refresh a private marker file."""
    fd = open_private(path, os.O_WRONLY | os.O_CREAT)
    try:
        os.utime(fd)
    finally:
        os.close(fd)
