"""A scripted stand-in model on 127.0.0.1 that an agent CLI under test talks to instead of an API.

The script is a list of actions (run this shell command, write this file, say this). The
stand-in does not keep a cursor: it reads the conversation the agent sends, counts the tool
calls the model already made in it, and answers the next action. That makes it indifferent
to retries, to side requests (titles, summaries, quota checks: any request that does not
offer the agent's shell tool gets a short text answer) and to how many round trips an agent
makes. Every request body is kept, so a test can read what the model was told.

One module per API shape (``standin_anthropic``, ``standin_responses``, ``standin_chat``,
``standin_gemini``) turns an action into that API's reply, streamed where the agent asks for
a stream.
"""

from __future__ import annotations

import json
import shlex
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, NamedTuple, Protocol


class Shell(NamedTuple):
    """The model calls the agent's shell tool with this command."""

    command: str


class WriteFile(NamedTuple):
    """The model calls the agent's file-writing tool."""

    path: str
    content: str


class ReadFile(NamedTuple):
    """The model reads a file (some agents refuse to overwrite a file the model has not read)."""

    path: str


class Say(NamedTuple):
    """The model answers with text and calls no tool (ends the agent's turn)."""

    text: str


Action = Shell | WriteFile | ReadFile | Say
Call = Shell | WriteFile | ReadFile


class ToolNames(NamedTuple):
    """How one agent names its tools and their arguments (what the stand-in calls)."""

    shell: str
    shell_args: Callable[[str], dict[str, Any]]
    write: str
    write_args: Callable[[str, str], dict[str, Any]]
    read: str | None = None  # None: the model reads with the shell (cat)
    read_args: Callable[[str], dict[str, Any]] | None = None


def tool_call(tools: ToolNames, action: Call) -> tuple[str, dict[str, Any]]:
    """The agent's tool name and arguments for ``action``."""
    if isinstance(action, ReadFile):
        if tools.read is None or tools.read_args is None:
            return tools.shell, tools.shell_args(f"cat {shlex.quote(action.path)}")
        return tools.read, tools.read_args(action.path)
    if isinstance(action, Shell):
        return tools.shell, tools.shell_args(action.command)
    return tools.write, tools.write_args(action.path, action.content)


class Reply(NamedTuple):
    """What a shape module answers to one request."""

    status: int
    content_type: str
    body: bytes


class Shape(Protocol):
    """One API shape: the paths it serves and how it answers."""

    def answer(self, path: str, body: Mapping[str, Any], stand_in: StandIn) -> Reply: ...

    def calls_made(self, body: Mapping[str, Any]) -> int:
        """How many tool calls the model made in the conversation ``body`` carries."""
        ...

    def tail(self, body: Mapping[str, Any]) -> str:
        """The text of everything the agent put after the model's last turn in ``body``: the
        tool result and whatever the agent added to it (a hook's context, a notice)."""
        ...


@dataclass
class StandIn:
    """The script, the agent's tool names, and every request the agent sent."""

    script: Sequence[Action]
    tools: ToolNames
    shape: Shape
    requests: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    url: str = ""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def next_action(self, calls_made: int) -> Action:
        """The action after ``calls_made`` tool calls; a closing text when the script is done."""
        if calls_made < len(self.script):
            return self.script[calls_made]
        return Say("Done.")

    def record(self, path: str, body: dict[str, Any]) -> None:
        with self.lock:
            self.requests.append((path, body))

    def results(self) -> list[str]:
        """What the model received after each of its tool calls: for call ``i``, the tail of
        the first request whose conversation holds ``i + 1`` calls."""
        with self.lock:
            bodies = [body for _, body in self.requests]
        found: dict[int, str] = {}
        for body in bodies:
            found.setdefault(self.shape.calls_made(body), self.shape.tail(body))
        count = max(found, default=0)
        return [found.get(index + 1, "") for index in range(count)]

    def sent(self) -> str:
        """Every request body, as one text (for "did the model ever see X")."""
        with self.lock:
            return "\n".join(json.dumps(body, ensure_ascii=False) for _, body in self.requests)


def sse(events: Iterator[tuple[str | None, Mapping[str, Any]]], done: bool = False) -> bytes:
    """Server-sent events: ``event:`` lines where a name is given, one JSON ``data:`` each."""
    out: list[str] = []
    for name, data in events:
        if name is not None:
            out.append(f"event: {name}\n")
        out.append(f"data: {json.dumps(data)}\n\n")
    if done:
        out.append("data: [DONE]\n\n")
    return "".join(out).encode()


def json_reply(data: Mapping[str, Any], status: int = 200) -> Reply:
    return Reply(status, "application/json", json.dumps(data).encode())


def _handler(stand_in: StandIn) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def _answer(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            try:
                body = json.loads(raw) if raw else {}
            except ValueError:
                body = {"_raw": raw.decode(errors="replace")}
            if not isinstance(body, dict):
                body = {"_body": body}
            stand_in.record(self.path, body)
            try:
                reply = stand_in.shape.answer(self.path, body, stand_in)
            except Exception as exc:  # a bug in the stand-in must show in the agent's output
                reply = json_reply({"error": {"message": f"stand-in error: {exc!r}"}}, 500)
            self.send_response(reply.status)
            self.send_header("Content-Type", reply.content_type)
            self.send_header("Content-Length", str(len(reply.body)))
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(reply.body)
            self.close_connection = True

        do_POST = _answer
        do_GET = _answer
        do_HEAD = _answer

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler


@contextmanager
def serve(stand_in: StandIn) -> Iterator[StandIn]:
    """Run the stand-in on 127.0.0.1 (a free port) for the duration of the block."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(stand_in))
    server.daemon_threads = True
    stand_in.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield stand_in
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)
