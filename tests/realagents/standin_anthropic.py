"""The Anthropic Messages API shape of the stand-in model (Claude Code), streamed when asked."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from standin import Action, Reply, Say, StandIn, json_reply, sse, tool_call


def _text(content: Any) -> str:
    """The text of a message's or a tool result's content (a string or a list of blocks)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(_text(block.get("content", block.get("text", ""))) for block in content)
    return ""


def _messages(body: Mapping[str, Any]) -> list[dict[str, Any]]:
    messages = body.get("messages")
    return messages if isinstance(messages, list) else []


def calls_made(body: Mapping[str, Any]) -> int:
    return sum(
        1
        for message in _messages(body)
        if message.get("role") == "assistant" and isinstance(message.get("content"), list)
        for block in message["content"]
        if block.get("type") == "tool_use"
    )


def _tail(body: Mapping[str, Any]) -> str:
    """The result of the model's last tool call and the text the agent added after it.
    Claude Code merges consecutive turns (two tool calls in one assistant message, their
    results in one user message), so the result is picked by the call's id."""
    messages = _messages(body)
    last = max((i for i, m in enumerate(messages) if m.get("role") == "assistant"), default=-1)
    calls = [
        block.get("id")
        for block in (messages[last].get("content") if last >= 0 else None) or ()
        if isinstance(block, dict) and block.get("type") == "tool_use"
    ]
    found: list[str] = []
    for message in messages[last + 1 :]:
        content = message.get("content")
        for block in content if isinstance(content, list) else [content]:
            if not isinstance(block, dict):
                found.append(_text(block))
            elif block.get("type") != "tool_result":
                found.append(_text(block.get("text", "")))
            elif calls and block.get("tool_use_id") == calls[-1]:
                found.append(_text(block.get("content")))
    return "\n".join(found)


def _offers(body: Mapping[str, Any], name: str) -> bool:
    tools = body.get("tools")
    return isinstance(tools, list) and any(t.get("name") == name for t in tools)


def _events(action: Action, stand_in: StandIn, model: str) -> Iterator[tuple[str, dict[str, Any]]]:
    message = {
        "id": "msg_standin",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 1},
    }
    yield "message_start", {"type": "message_start", "message": message}
    if isinstance(action, Say):
        block: dict[str, Any] = {"type": "text", "text": ""}
        delta = {"type": "text_delta", "text": action.text}
        stop = "end_turn"
    else:
        name, args = tool_call(stand_in.tools, action)
        block = {"type": "tool_use", "id": f"toolu_standin_{len(stand_in.requests)}"}
        block |= {"name": name, "input": {}}
        delta = {"type": "input_json_delta", "partial_json": json.dumps(args)}
        stop = "tool_use"
    yield "content_block_start", {"type": "content_block_start", "index": 0, "content_block": block}
    yield "content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}
    yield "content_block_stop", {"type": "content_block_stop", "index": 0}
    yield (
        "message_delta",
        {
            "type": "message_delta",
            "delta": {"stop_reason": stop, "stop_sequence": None},
            "usage": {"output_tokens": 5},
        },
    )
    yield "message_stop", {"type": "message_stop"}


def _whole(action: Action, stand_in: StandIn, model: str) -> dict[str, Any]:
    """The same reply as one JSON message (a request without ``stream``)."""
    if isinstance(action, Say):
        content: list[dict[str, Any]] = [{"type": "text", "text": action.text}]
        stop = "end_turn"
    else:
        name, args = tool_call(stand_in.tools, action)
        content = [{"type": "tool_use", "id": "toolu_standin", "name": name, "input": args}]
        stop = "tool_use"
    return {
        "id": "msg_standin",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 5},
    }


class Anthropic:
    """``POST /v1/messages`` (and ``/count_tokens``)."""

    def answer(self, path: str, body: Mapping[str, Any], stand_in: StandIn) -> Reply:
        if "count_tokens" in path:
            return json_reply({"input_tokens": 10})
        if "/messages" not in path:
            return json_reply({})
        main = _offers(body, stand_in.tools.shell)
        action = stand_in.next_action(calls_made(body)) if main else Say("OK")
        model = str(body.get("model", "claude-standin"))
        if body.get("stream"):
            return Reply(200, "text/event-stream", sse(_events(action, stand_in, model)))
        return json_reply(_whole(action, stand_in, model))

    def calls_made(self, body: Mapping[str, Any]) -> int:
        return calls_made(body)

    def tail(self, body: Mapping[str, Any]) -> str:
        return _tail(body)
