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
import time

from dcg import oslite as os

TYPE_CHECKING = False  # typing costs ms at start-up; type checkers treat this as True

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

try:
    from _sha256 import sha256 as _sha256  # type: ignore[import-not-found, unused-ignore]
except ImportError:  # pragma: no cover - Python >= 3.12 merged the module
    from _sha2 import sha256 as _sha256  # type: ignore[import-not-found, no-redef, unused-ignore]

_FLAGS = os.O_NOFOLLOW | os.O_CLOEXEC
_checked_dirs: set[str] = set()
_notes: list[str] = []
_said: set[str] = set()


# How long a hook waits in all for a lock another process holds (decisions.md 10.4 and
# 11.7: a stuck holder must never make a hook wait past its budget; the count it could
# not keep then counts as repeated).
LOCK_WAIT = 0.3


class StateError(OSError):
    """A state location that must not be used (symlink, foreign owner, not a directory)."""


class LockBusy(OSError):
    """Another process held a state file's lock for longer than :data:`LOCK_WAIT`."""


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
    """Open and lock ``path``, retrying if it was replaced while we waited for the lock.

    The lock is taken without blocking and retried for at most :data:`LOCK_WAIT`
    seconds; then :class:`LockBusy` is raised.
    """
    deadline = time.monotonic() + LOCK_WAIT
    while True:
        fd = open_private(path, flags)
        try:
            _lock_bounded(fd, lock, path, deadline)
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


def _lock_bounded(fd: int, lock: int, path: str, deadline: float) -> None:
    pause = 0.002
    while True:
        try:
            fcntl.flock(fd, lock | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() >= deadline:
                raise LockBusy(f"{path} is locked by another process") from None
            time.sleep(pause)
            pause = min(pause * 2, 0.05)


def probe_append(path: str) -> None:
    """Raise OSError when an append to ``path`` could not be made now (read-only or
    immutable file, no space left, a lock held past :data:`LOCK_WAIT`). Writes nothing."""
    ensure_dir(os.path.dirname(path))
    fd = _open_locked(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, fcntl.LOCK_SH)
    try:
        from posix import fstatvfs

        vfs = fstatvfs(fd)
        if vfs.f_bavail * vfs.f_frsize < 65536:
            raise OSError(28, f"no space left for {path}")
    finally:
        os.close(fd)


def append_line(path: str, line: str) -> None:
    """Append one record line with a single write (shared lock: rewrites wait).

    A file whose last byte is not a newline may end in a torn line (a write cut short by
    a full disk or a kill), or another appender may be in the middle of its write. The
    appender then takes the lock exclusively (so no write is in progress) and looks
    again: a torn tail gets a newline ahead of the record, so the record is a complete
    line and the fragment stays a line readers skip. Checking costs one ``pread`` of the
    last byte, never a read of the file.
    """
    data = line.encode() if line.endswith("\n") else (line + "\n").encode()
    ensure_dir(os.path.dirname(path))
    flags = os.O_RDWR | os.O_APPEND | os.O_CREAT
    fd = _open_locked(path, flags, fcntl.LOCK_SH)
    try:
        if not _ends_line(fd):
            fcntl.flock(fd, fcntl.LOCK_EX)  # no other write is in progress once we hold it
            if os.stat(path).st_ino != os.fstat(fd).st_ino:  # rewritten while we waited
                os.close(fd)
                fd = -1
                fd = _open_locked(path, flags, fcntl.LOCK_EX)
            if not _ends_line(fd):
                data = b"\n" + data
        written = os.write(fd, data)
        if written != len(data):
            raise OSError(f"short write to {path}")
    finally:
        if fd >= 0:
            os.close(fd)


def _ends_line(fd: int) -> bool:
    """Whether the file is empty or its last byte ends a line."""
    size = os.fstat(fd).st_size
    return not size or os.pread(fd, 1, size - 1) == b"\n"


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
    clean_temps(path)


def clean_temps(path: str) -> int:
    """Remove the temp files killed writers left beside ``path`` (``<name>.tmp.<pid>``
    whose process is gone, or older than an hour); returns how many."""
    directory, name = os.path.split(path)
    prefix = f"{name}.tmp."
    removed = 0
    try:
        names = os.listdir(directory or ".")
    except OSError:
        return 0
    for entry in names:
        if not entry.startswith(prefix):
            continue
        pid = entry[len(prefix) :]
        full = os.path.join(directory, entry)
        age = time.time() - (mtime(full) or time.time())
        if not (pid.isdigit() and (age > 3600 or (age > 60 and not _alive(int(pid))))):
            continue
        try:
            os.unlink(full)
            removed += 1
        except OSError:
            pass
    return removed


def _alive(pid: int) -> bool:
    from posix import kill

    try:
        kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


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


def rewrite_appended(path: str, change: Callable[[bytes], bytes | None]) -> bytes | None:
    """Read-modify-write of an append-only file, its lock held only for the last step.

    ``change`` gets the file's complete lines as they were when read (without any lock:
    a rewrite of a million lines takes seconds, and a hook must never wait that long,
    decisions.md 10.4). Its result goes to a temp file; then, under the exclusive lock
    (bounded by :data:`LOCK_WAIT` like every lock), the lines appended meanwhile are
    copied after it and the temp file replaces the file. When another rewrite replaced
    the file in the meantime nothing is changed (the next one will do it).
    """
    ensure_dir(os.path.dirname(path))
    try:
        fd = open_private(path, os.O_RDONLY)
    except FileNotFoundError:
        return None
    try:
        inode = os.fstat(fd).st_ino
        data = _read_all(fd)
    finally:
        os.close(fd)
    cut = data.rfind(b"\n") + 1  # a line still being appended belongs to the tail
    new = change(data[:cut])
    del data
    if new is None:
        return None
    tmp = f"{path}.tmp.{os.getpid()}"
    out = open_private(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    try:
        _write_all(out, new)
        held = _open_locked(path, os.O_RDONLY, fcntl.LOCK_EX)
        try:
            if os.fstat(held).st_ino != inode:
                raise _Replaced
            pos = cut
            while chunk := os.pread(held, 1 << 20, pos):
                _write_all(out, chunk)
                pos += len(chunk)
            os.close(out)
            out = -1
            os.replace(tmp, path)
        finally:
            os.close(held)
    except _Replaced:
        _discard(out, tmp)
        return None
    except BaseException:
        _discard(out, tmp)
        raise
    clean_temps(path)
    return new


class _Replaced(Exception):
    """Another rewrite replaced the file while :func:`rewrite_appended` read it."""


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _discard(fd: int, tmp: str) -> None:
    if fd >= 0:
        os.close(fd)
    try:  # noqa: SIM105 - contextlib would cost an import on the hook path
        os.unlink(tmp)
    except OSError:
        pass


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


# A line longer than this is no record of dcg's (commands are truncated long before):
# what :func:`read_lines` would have to hold of it is dropped, so memory stays bounded.
MAX_LINE = 1 << 24


def read_lines(
    fd: int, start: int, end: int, *, partial: bool = False, block: int = 1 << 20
) -> Iterator[tuple[bytes, int]]:
    """The complete lines of ``fd`` between ``start`` and ``end``, a block at a time.

    Yields each line without its newline and the offset just past it; memory is one
    block and one line, whatever the file's size. A final line without a newline (still
    being written) is left out unless ``partial``; a line over :data:`MAX_LINE` is skipped.
    """
    rest = b""
    base = start  # file offset of rest[0]
    pos = start
    skipping = False
    while pos < end:
        chunk = os.pread(fd, min(block, end - pos), pos)
        if not chunk:
            break
        pos += len(chunk)
        data = rest + chunk if rest else chunk
        i = 0
        while True:
            nl = data.find(b"\n", i)
            if nl < 0:
                break
            if skipping:
                skipping = False
            else:
                yield data[i:nl], base + nl + 1
            i = nl + 1
        rest = data[i:]
        base += i
        if len(rest) > MAX_LINE:
            base += len(rest)
            rest = b""
            skipping = True
    if partial and rest and not skipping:
        yield rest, base + len(rest)
