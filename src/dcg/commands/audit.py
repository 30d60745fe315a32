"""``dcg audit export`` prints history records; ``dcg audit ship`` sends new ones over OTLP.

``export [--since WHEN] [--format jsonl|csv]`` is read-only and writes to stdout (an
agent may run it). ``ship`` sends the records written since its last run to an
OpenTelemetry collector (``_audit_ship``), moving the cursor (``_audit_cursor``) only
after the collector acknowledged each batch; a refused batch is retried with backoff,
and what is still refused is left for the next run. The endpoint and headers come from
the managed policy's ``[audit]``, then the system config's, then the standard
``OTEL_EXPORTER_OTLP_LOGS_*`` / ``OTEL_EXPORTER_OTLP_*`` variables. An agent cannot run
``ship`` (selfguard): pointed at another collector it would move the cursor past
records the organisation never received. The hook itself never talks to the network.
"""

from __future__ import annotations

import os
import sys
import time
from typing import TYPE_CHECKING

from dcg import paths
from dcg.commands import _audit_cursor as cursor
from dcg.errors import DcgError
from dcg.state import clock

if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence
    from typing import TextIO

    from dcg.config import Config

# The CSV columns: every field of schema 2 (docs/json-schema/history-record.v2.json).
FIELDS = (
    "schema_version", "timestamp", "id", "rule_id", "pack_id", "severity", "response_level",
    "allowed", "via", "snapshot", "agent", "session_id", "project", "cwd", "host", "user", "uid",
    "command_hash", "boot", "up", "command",
)  # fmt: skip
DEFAULT_ENDPOINT = "http://localhost:4318/v1/logs"


def cursor_file() -> str:
    return os.path.join(paths.config_dir(), "audit-cursor.json")


def main(args: argparse.Namespace) -> int:
    if args.action == "export":
        return export(since=args.since, fmt=args.format, out=sys.stdout)
    from dcg import config

    cfg = config.load(os.getcwd())
    return ship(
        cfg,
        batch_size=args.batch_size,
        retries=args.retries,
        backoff=args.backoff,
        timeout=args.timeout,
    )


def parse_since(text: str, now: float) -> str:
    """``WHEN`` as the ISO timestamp records are compared with: ``24h``/``7d`` ago, or a date."""
    t = text.strip()
    try:
        return clock.iso(now - clock.parse_duration(t))
    except ValueError:
        pass
    for fmt, size in (("%Y-%m-%dT%H:%M:%SZ", 20), ("%Y-%m-%dT%H:%M:%S", 19), ("%Y-%m-%d", 10)):
        try:
            time.strptime(t, fmt)
        except ValueError:
            continue
        if size == 10:
            return t + "T00:00:00Z"
        return t[:19] + "Z"
    raise DcgError(f"--since {text!r}: use a duration (24h, 7d) or a date (2026-01-15)")


def export(*, since: str | None, fmt: str, out: TextIO, now: float | None = None) -> int:
    """Every well-formed record (since ``since``) to ``out``, as JSON lines or CSV.

    The history is read a block at a time up to the size it had when opened, and each
    record is written as it is read: memory does not grow with the file (issue 27).
    """
    from dcg.state import files
    from dcg.state.history import _timestamp, parse_line

    cutoff = parse_since(since, time.time() if now is None else now) if since else ""
    low = cutoff.encode()
    path = paths.history_file()
    try:
        fd = files.open_private(path, os.O_RDONLY)
    except FileNotFoundError:
        fd = -1
    except OSError as exc:
        raise DcgError(f"cannot read {path}: {exc}") from None
    if fmt == "csv":
        import csv

        writer = csv.DictWriter(out, fieldnames=FIELDS, extrasaction="ignore")
        writer.writeheader()
    else:
        import json
    try:
        size = os.fstat(fd).st_size if fd >= 0 else 0
        for raw, _ in files.read_lines(fd, 0, size):
            ts = _timestamp(raw)
            if low and ts and ts < low:
                continue  # older than --since: skipped without parsing it
            rec = parse_line(raw)
            if rec is None or str(rec.get("timestamp", "")) < cutoff:
                continue
            if fmt == "csv":
                writer.writerow({k: _csv(rec.get(k)) for k in FIELDS})
            else:
                out.write(json.dumps(rec, ensure_ascii=False, separators=(",", ":")) + "\n")
    finally:
        if fd >= 0:
            os.close(fd)
    return 0


def _csv(value: object) -> object:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else value


def destination(cfg: Config) -> tuple[str, dict[str, str] | None, str]:
    """The logs endpoint, the headers (None: the OTEL variables') and where they came from."""
    from dcg import managed

    policy, _ = managed.read()
    table = policy.get("audit") if policy else None
    fixed = table if isinstance(table, dict) else {}
    endpoint = str(fixed.get("endpoint") or cfg.audit.get("endpoint") or "")
    source = (
        "managed policy"
        if fixed.get("endpoint")
        else ("system config" if cfg.audit.get("endpoint") else "")
    )
    headers_value = fixed.get("headers") or cfg.audit.get("headers") or None
    headers = (
        {str(k): str(v) for k, v in headers_value.items()}
        if isinstance(headers_value, dict)
        else None
    )
    if not endpoint:
        for var in ("OTEL_EXPORTER_OTLP_LOGS_ENDPOINT", "OTEL_EXPORTER_OTLP_ENDPOINT"):
            if os.environ.get(var):
                endpoint, source = os.environ[var], var
                break
        else:
            endpoint, source = DEFAULT_ENDPOINT, "default"
        if source == "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT":
            return endpoint, headers, source  # the full logs URL, as the variable says
    return _logs_path(endpoint), headers, source


def _logs_path(endpoint: str) -> str:
    """A base URL (``http://collector:4318``) gets the logs path; a full one is kept."""
    _, sep, rest = endpoint.partition("://")
    if sep and "/" not in rest.strip("/"):
        return endpoint.rstrip("/") + "/v1/logs"
    return endpoint


def ship(
    cfg: Config,
    *,
    batch_size: int | None = None,
    retries: int = 5,
    backoff: float = 2.0,
    timeout: float | None = None,
    err: TextIO | None = None,
) -> int:
    """Send what the cursor has not seen yet, batch by batch; 0 when all of it arrived."""
    from dcg.commands._audit_ship import Shipper
    from dcg.state import files

    err = sys.stderr if err is None else err
    size = batch_size or int(str(cfg.audit.get("batch_size") or 200))
    wait = float(timeout or float(str(cfg.audit.get("timeout") or 10)))
    endpoint, headers, source = destination(cfg)
    lock = cursor.Lock(cursor_file())
    if not lock.acquire():
        raise DcgError("another dcg audit ship is running; try again when it is done")
    try:
        dropped = _dropped_unsent()
        shipper = Shipper(endpoint, headers, wait)
        history = paths.history_file()
        data = files.read_shared(history)
        saved = cursor.load(cursor_file())
        start, note = cursor.resume(data, saved)
        if note:
            print(f"dcg: {note}", file=err)
        shipped = int(str(saved.get("shipped", 0))) if saved else 0
        pending = cursor.lines(data, start)
        sent = 0
        for batch in _batches(pending, size):
            records = [(ln, cursor.record_uid(ln)) for ln in batch if ln.record is not None]
            if records and not _send(shipper, records, retries, backoff, err):
                print(
                    f"dcg: error: {endpoint} ({source}) did not accept the records; sent {sent}, "
                    f"{sum(1 for ln in pending if ln.record) - sent} left for the next run",
                    file=err,
                )
                return 1
            sent += len(records)
            shipped += len(records)
            cursor.save(cursor_file(), history, batch[-1], shipped, time.time())
        shipper.close()
    finally:
        lock.release()
    print(f"dcg: sent {sent} record{'s' if sent != 1 else ''} to {endpoint} ({source})", file=err)
    if dropped:
        from dcg.state.history import HOLD

        print(
            f"dcg: error: {dropped} record{'s were' if dropped != 1 else ' was'} pruned from the "
            "history before it could be sent (pruning keeps at most history.max_entries x "
            f"{HOLD} unsent records); run dcg audit ship more often",
            file=err,
        )
        return 1
    return 0


def _dropped_unsent() -> int:
    """How many unsent records pruning had to drop since the last run (said once: the
    count is taken, under the shipper's lock)."""
    from dcg.state import files
    from dcg.state.history import UNSENT_NAME

    path = os.path.join(paths.config_dir(), UNSENT_NAME)
    try:
        data = files.read_bytes(path)
    except OSError:
        return 0
    import json

    total = 0
    for raw in data.splitlines():
        try:
            total += int(json.loads(raw).get("dropped", 0))
        except (ValueError, AttributeError, TypeError):
            continue
    if data:
        os.unlink(path)
    return total


def _batches(pending: Sequence[cursor.Line], size: int) -> list[list[cursor.Line]]:
    return [list(pending[i : i + size]) for i in range(0, len(pending), max(size, 1))]


def _send(shipper: object, records: list[tuple[cursor.Line, str]], retries: int,
          backoff: float, err: TextIO) -> bool:  # fmt: skip
    """One batch, retried with exponential backoff while the collector refuses it."""
    for attempt in range(retries + 1):
        if shipper.send(records):  # type: ignore[attr-defined]
            return True
        if attempt < retries:
            delay = min(backoff * 2**attempt, 60.0)
            print(f"dcg: the collector refused a batch; retrying in {delay:g}s", file=err)
            time.sleep(delay)
    return False
