"""A real OTLP/HTTP logs endpoint for the tests: decodes requests with opentelemetry-proto.

``Sink`` listens on 127.0.0.1, answers ``POST /v1/logs`` like a collector, and keeps
every log record it accepted (attributes, timestamps, resource). It can refuse the next
requests with HTTP 503 (a collector in trouble) or hold one request after receiving it,
never answering (so a test can kill the shipper between "the collector has the batch"
and "the shipper wrote its cursor").
"""

from __future__ import annotations

import gzip
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from opentelemetry.proto.collector.logs.v1 import logs_service_pb2
from opentelemetry.proto.common.v1 import common_pb2


def _value(v: common_pb2.AnyValue) -> object:
    kind = v.WhichOneof("value")
    return getattr(v, kind) if kind else None


class Received:
    """One log record as the collector got it."""

    def __init__(self, record: object, resource: dict[str, object], scope: str) -> None:
        self.attributes: dict[str, object] = {
            kv.key: _value(kv.value)
            for kv in record.attributes  # type: ignore[attr-defined]
        }
        self.time_unix_nano: int = record.time_unix_nano  # type: ignore[attr-defined]
        self.severity_number: int = int(record.severity_number)  # type: ignore[attr-defined]
        self.severity_text: str = record.severity_text  # type: ignore[attr-defined]
        self.body = _value(record.body)  # type: ignore[attr-defined]
        self.event_name: str = record.event_name  # type: ignore[attr-defined]
        self.resource = resource
        self.scope = scope

    @property
    def uid(self) -> str:
        return str(self.attributes["log.record.uid"])


class Sink:
    def __init__(self) -> None:
        self.records: list[Received] = []
        self.requests = 0
        self.refuse = 0  # answer the next N requests with 503
        self.refuse_after: int | None = None  # ... and every request after the n-th
        self.hold_request: int | None = None  # the n-th request (1-based) is kept, unanswered
        self.held = threading.Event()
        self.release = threading.Event()
        self.lock = threading.Lock()
        sink = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: object) -> None:
                return None

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                if self.headers.get("Content-Encoding") == "gzip":
                    body = gzip.decompress(body)
                with sink.lock:
                    sink.requests += 1
                    n = sink.requests
                    refuse = sink.refuse > 0
                    if refuse:
                        sink.refuse -= 1
                    if sink.refuse_after is not None and n > sink.refuse_after:
                        refuse = True
                if self.path != "/v1/logs":
                    self.send_response(404)
                    self.end_headers()
                    return
                if refuse:
                    self.send_response(503)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                request = logs_service_pb2.ExportLogsServiceRequest()
                request.ParseFromString(body)
                got = []
                for rl in request.resource_logs:
                    resource = {kv.key: _value(kv.value) for kv in rl.resource.attributes}
                    for sl in rl.scope_logs:
                        for rec in sl.log_records:
                            got.append(Received(rec, resource, sl.scope.name))
                with sink.lock:
                    sink.records.extend(got)
                if n == sink.hold_request:
                    sink.held.set()
                    sink.release.wait(60)
                    return
                answer = logs_service_pb2.ExportLogsServiceResponse().SerializeToString()
                self.send_response(200)
                self.send_header("Content-Type", "application/x-protobuf")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self) -> Sink:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()

    def uids(self) -> list[str]:
        with self.lock:
            return [r.uid for r in self.records]
