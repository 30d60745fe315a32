"""Work the hook does after it has answered (pruning a long history, issue 27).

The hook process enables deferral (:func:`defer_jobs`) before it judges; what state code
hands to :func:`defer` then runs in a detached child once the reply is written
(:func:`run_deferred`). Every other caller (``dcg history``, tests) runs the job at once.
"""

from __future__ import annotations

from dcg import oslite as os

TYPE_CHECKING = False  # typing costs ms at start-up; type checkers treat this as True

if TYPE_CHECKING:
    from collections.abc import Callable

_deferred: list[Callable[[], object]] = []
_defer_on: list[bool] = []


def defer(job: Callable[[], object]) -> None:
    """Run ``job`` after the answer when the hook process enabled it (:func:`defer_jobs`),
    else now. Pruning a large history never delays an answer (issue 27)."""
    if _defer_on:
        _deferred.append(job)
    else:
        job()


def defer_jobs() -> None:
    _defer_on.append(True)


def run_deferred() -> None:
    """Run the deferred jobs in a detached child, so the agent has its answer and the
    hook's exit at once; the child's stdio is /dev/null (the agent's pipes close)."""
    if not _deferred:
        return
    from posix import _exit, dup2, fork, setsid

    jobs = list(_deferred)
    _deferred.clear()
    try:
        pid = fork()
    except OSError:
        pid = -1
    if pid > 0:
        return
    if pid == 0:
        try:
            setsid()
            null = os.open("/dev/null", os.O_RDWR)
            for fd in (0, 1, 2):
                dup2(null, fd)
        except OSError:
            _exit(0)
    for job in jobs:
        try:
            job()
        except Exception:  # best effort: the answer is already given
            continue
    if pid == 0:
        _exit(0)
