"""The OpenAI Chat Completions shape of the stand-in model (Qwen Code, OpenCode)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from standin import Action, Reply, Say, StandIn, json_reply, sse, tool_call

_USAGE = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}


def _messages(body: Mapping[str, Any]) -> list[dict[str, Any]]:
    messages = body.get("messages")
    return [m for m in messages if isinstance(m, dict)] if isinstance(messages, list) else []


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(_text(part) for part in content)
    if isinstance(content, dict):
        return _text(content.get("text", content.get("content", "")))
    return ""


def _offers(body: Mapping[str, Any], name: str) -> bool:
    tools = body.get("tools")
    return isinstance(tools, list) and any(
        isinstance(tool, dict) and (tool.get("function") or {}).get("name") == name
        for tool in tools
    )


def _message(action: Action, stand_in: StandIn, serial: int) -> dict[str, Any]:
    if isinstance(action, Say):
        return {"role": "assistant", "content": action.text}
    name, args = tool_call(stand_in.tools, action)
    call = {
        "id": f"call_standin_{serial}",
        "type": "function",
        "function": {"name": name, "arguments": json.dumps(args)},
    }
    return {"role": "assistant", "content": None, "tool_calls": [call]}


def _chunks(
    message: dict[str, Any], model: str, serial: int
) -> Iterator[tuple[None, dict[str, Any]]]:
    head = {
        "id": f"chatcmpl-standin-{serial}",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": model,
    }
    if message.get("tool_calls"):
        delta: dict[str, Any] = {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"index": 0, **call} for call in message["tool_calls"]],
        }
        finish = "tool_calls"
    else:
        delta = {"role": "assistant", "content": message["content"]}
        finish = "stop"
    yield None, head | {"choices": [{"index": 0, "delta": delta, "finish_reason": None}]}
    yield None, head | {"choices": [{"index": 0, "delta": {}, "finish_reason": finish}]}
    yield None, head | {"choices": [], "usage": _USAGE}


class Chat:
    """``POST …/chat/completions`` (and ``GET …/models`` with one model)."""

    def answer(self, path: str, body: Mapping[str, Any], stand_in: StandIn) -> Reply:
        if path.rstrip("/").endswith("/models"):
            return json_reply({"object": "list", "data": [{"id": "standin", "object": "model"}]})
        if "/chat/completions" not in path:
            return json_reply({})
        main = _offers(body, stand_in.tools.shell)
        action = stand_in.next_action(self.calls_made(body)) if main else Say("OK")
        serial = len(stand_in.requests)
        message = _message(action, stand_in, serial)
        model = str(body.get("model", "standin"))
        if body.get("stream"):
            return Reply(200, "text/event-stream", sse(_chunks(message, model, serial), done=True))
        finish = "tool_calls" if message.get("tool_calls") else "stop"
        return json_reply(
            {
                "id": f"chatcmpl-standin-{serial}",
                "object": "chat.completion",
                "created": 0,
                "model": model,
                "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                "usage": _USAGE,
            }
        )

    def calls_made(self, body: Mapping[str, Any]) -> int:
        return sum(
            len(message.get("tool_calls") or ())
            for message in _messages(body)
            if message.get("role") == "assistant"
        )

    def tail(self, body: Mapping[str, Any]) -> str:
        messages = _messages(body)
        last = max((i for i, m in enumerate(messages) if m.get("role") == "assistant"), default=-1)
        return "\n".join(_text(message.get("content")) for message in messages[last + 1 :])
