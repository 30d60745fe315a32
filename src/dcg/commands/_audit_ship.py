"""History records as OpenTelemetry log records, sent over OTLP/HTTP with the official SDK.

The SDK (``pip install 'dcg[otel]'``) is imported only here, only by ``dcg audit ship``.
A record becomes one log record: its timestamp, a severity from the response level, the
redacted command as the body, and the attributes of :data:`ATTRIBUTES` (the same names
the zero-code collector configuration in ``docs/otel-collector.yaml`` produces).
:func:`send` exports one batch synchronously and says whether the collector accepted it,
so the caller can move the cursor only then.
"""

from __future__ import annotations

import calendar
import time
from typing import TYPE_CHECKING

from dcg import __version__
from dcg.errors import DcgError

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from opentelemetry._logs import SeverityNumber

    from dcg.commands._audit_cursor import Line

# History record field -> log record attribute. `log.record.uid` is OpenTelemetry's
# name for the id a pipeline deduplicates on; the others follow the semantic
# conventions where one exists (host.name, user.name, user.id, session.id).
ATTRIBUTES: dict[str, str] = {
    "id": "log.record.uid",
    "schema_version": "dcg.schema_version",
    "rule_id": "dcg.rule.id",
    "pack_id": "dcg.pack.id",
    "severity": "dcg.severity",
    "response_level": "dcg.level",
    "allowed": "dcg.allowed",
    "via": "dcg.via",
    "snapshot": "dcg.snapshot",
    "agent": "dcg.agent",
    "project": "dcg.project",
    "cwd": "dcg.cwd",
    "session_id": "session.id",
    "command_hash": "dcg.command.hash",
    "command": "dcg.command",
    "host": "host.name",
    "user": "user.name",
    "uid": "user.id",
    "boot": "dcg.boot.id",
    "up": "dcg.boot.uptime",
}
# Response level -> OpenTelemetry severity number (logs data model: 9 INFO, 13 WARN, 17 ERROR).
SEVERITY: dict[str, int] = {"allow": 9, "warning": 13, "soft_block": 13, "hard_block": 17}
MISSING = "dcg audit ship needs the OpenTelemetry SDK: pip install 'dcg[otel]'"


def attributes(line: Line, uid: str) -> dict[str, str | bool | int]:
    """The log record attributes of one history line (values as OTLP can carry them)."""
    rec = line.record or {}
    out: dict[str, str | bool | int] = {}
    for field, name in ATTRIBUTES.items():
        value = rec.get(field)
        if value is None:
            continue
        if name == "user.id":
            value = str(value)  # the semantic conventions' user.id is a string
        out[name] = value if isinstance(value, (str, bool, int)) else str(value)
    out["log.record.uid"] = uid
    if "user.name" not in out and isinstance(rec.get("uid"), int):
        found = account(int(str(rec["uid"])))
        if found:
            out["user.name"] = found
    return out


def account(uid: int) -> str | None:
    """The account name of ``uid`` (a record written without $USER has only the uid)."""
    import pwd

    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return None


def timestamp_ns(rec: Mapping[str, object]) -> int | None:
    text = str(rec.get("timestamp", ""))
    try:
        return calendar.timegm(time.strptime(text, "%Y-%m-%dT%H:%M:%SZ")) * 1_000_000_000
    except ValueError:
        return None


class Shipper:
    """An OTLP/HTTP log exporter and a logger provider that hands it whole batches."""

    def __init__(self, endpoint: str, headers: Mapping[str, str] | None, timeout: float) -> None:
        try:
            from opentelemetry.exporter.otlp.proto.http._log_exporter import OTLPLogExporter
            from opentelemetry.sdk._logs import LoggerProvider, LogRecordProcessor
            from opentelemetry.sdk.resources import Resource
        except ImportError:
            raise DcgError(MISSING) from None
        import os

        collected: list[object] = []
        self.collected = collected

        class Collect(LogRecordProcessor):
            """Keeps what the logger emits, for one synchronous export per batch."""

            def on_emit(self, log_record: object) -> None:
                collected.append(log_record)

            def shutdown(self) -> None:
                return None

            def force_flush(self, timeout_millis: int = 30000) -> bool:
                return True

        resource = Resource.create(
            {
                "service.name": "dcg",
                "service.version": __version__,
                "host.name": os.uname().nodename,
            }
        )
        self.provider = LoggerProvider(resource=resource)
        self.provider.add_log_record_processor(Collect())
        self.logger = self.provider.get_logger("dcg.audit", __version__)
        self.exporter = OTLPLogExporter(
            endpoint=endpoint, headers=dict(headers) if headers else None, timeout=timeout
        )

    def send(self, batch: Sequence[tuple[Line, str]]) -> bool:
        """Export ``(line, uid)`` pairs as one request; True when the collector accepted it."""
        from opentelemetry.sdk._logs import ReadableLogRecord
        from opentelemetry.sdk._logs.export import LogRecordExportResult

        self.collected.clear()
        observed = time.time_ns()
        for line, uid in batch:
            rec = line.record or {}
            level = str(rec.get("response_level", ""))
            self.logger.emit(
                timestamp=timestamp_ns(rec),
                observed_timestamp=observed,
                severity_number=_severity(level),
                severity_text=level,
                body=str(rec.get("command") or rec.get("rule_id")),
                attributes=attributes(line, uid),
                event_name="dcg.decision",
            )
        readable = [
            ReadableLogRecord(
                log_record=r.log_record,  # type: ignore[attr-defined]
                resource=r.resource,  # type: ignore[attr-defined]
                instrumentation_scope=r.instrumentation_scope,  # type: ignore[attr-defined]
                limits=r.limits,  # type: ignore[attr-defined]
            )
            for r in self.collected
        ]
        result = self.exporter.export(readable)
        return bool(result == LogRecordExportResult.SUCCESS)

    def close(self) -> None:
        self.exporter.shutdown()  # type: ignore[no-untyped-call]


def _severity(level: str) -> SeverityNumber:
    from opentelemetry._logs import SeverityNumber

    return SeverityNumber(SEVERITY.get(level, 9))
