"""The OpenAI Responses API shape of the stand-in model (Codex), streamed as server-sent events."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from standin import Action, Reply, Say, StandIn, json_reply, sse, tool_call

_CALLS = ("function_call", "custom_tool_call", "local_shell_call")


def _items(body: Mapping[str, Any]) -> list[dict[str, Any]]:
    items = body.get("input")
    return [item for item in items if isinstance(item, dict)] if isinstance(items, list) else []


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "\n".join(_text(part) for part in value)
    if isinstance(value, dict):
        for key in ("text", "output", "content"):
            if key in value:
                return _text(value[key])
    return ""


def _is_model_turn(item: Mapping[str, Any]) -> bool:
    return item.get("type") in _CALLS or item.get("role") == "assistant"


def _tool(body: Mapping[str, Any], name: str) -> dict[str, Any] | None:
    tools = body.get("tools")
    if not isinstance(tools, list):
        return None
    return next((t for t in tools if isinstance(t, dict) and t.get("name") == name), None)


def _output(
    action: Action, stand_in: StandIn, body: Mapping[str, Any], serial: int
) -> dict[str, Any]:
    if isinstance(action, Say):
        return {
            "type": "message",
            "id": f"msg_standin_{serial}",
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": action.text, "annotations": []}],
        }
    name, args = tool_call(stand_in.tools, action)
    offered = _tool(body, name) or {}
    if offered.get("type") == "custom":  # a freeform tool (Codex's apply_patch): raw input
        return {
            "type": "custom_tool_call",
            "id": f"ctc_standin_{serial}",
            "call_id": f"call_standin_{serial}",
            "name": name,
            "input": args["input"],
            "status": "completed",
        }
    return {
        "type": "function_call",
        "id": f"fc_standin_{serial}",
        "call_id": f"call_standin_{serial}",
        "name": name,
        "arguments": json.dumps(args),
        "status": "completed",
    }


def _events(item: dict[str, Any], model: str, serial: int) -> Iterator[tuple[str, dict[str, Any]]]:
    response: dict[str, Any] = {
        "id": f"resp_standin_{serial}",
        "object": "response",
        "created_at": 0,
        "status": "in_progress",
        "model": model,
        "output": [],
    }
    yield "response.created", {"type": "response.created", "response": response}
    yield (
        "response.output_item.added",
        {
            "type": "response.output_item.added",
            "output_index": 0,
            "item": item,
        },
    )
    yield (
        "response.output_item.done",
        {
            "type": "response.output_item.done",
            "output_index": 0,
            "item": item,
        },
    )
    usage = {
        "input_tokens": 10,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": 5,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": 15,
    }
    done = response | {"status": "completed", "output": [item], "usage": usage}
    yield "response.completed", {"type": "response.completed", "response": done}


class Responses:
    """``POST /v1/responses`` (and ``GET /v1/models`` answered with an empty list)."""

    def answer(self, path: str, body: Mapping[str, Any], stand_in: StandIn) -> Reply:
        if "/models" in path:
            return json_reply({"object": "list", "data": [], "models": []})
        if "/responses" not in path:
            return json_reply({})
        main = _tool(body, stand_in.tools.shell) is not None
        action = stand_in.next_action(self.calls_made(body)) if main else Say("OK")
        serial = len(stand_in.requests)
        item = _output(action, stand_in, body, serial)
        model = str(body.get("model", "standin"))
        if body.get("stream", True):
            return Reply(200, "text/event-stream", sse(_events(item, model, serial)))
        return json_reply({"id": f"resp_standin_{serial}", "output": [item], "status": "completed"})

    def calls_made(self, body: Mapping[str, Any]) -> int:
        return sum(1 for item in _items(body) if item.get("type") in _CALLS)

    def tail(self, body: Mapping[str, Any]) -> str:
        items = _items(body)
        last = max((i for i, item in enumerate(items) if _is_model_turn(item)), default=-1)
        return "\n".join(_text(item) for item in items[last + 1 :])
