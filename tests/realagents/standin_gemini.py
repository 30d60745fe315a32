"""The Gemini API shape of the stand-in model (Gemini CLI): generateContent, streamed (alt=sse)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from standin import Action, Reply, Say, StandIn, json_reply, sse, tool_call


def _contents(body: Mapping[str, Any]) -> list[dict[str, Any]]:
    contents = body.get("contents")
    return [c for c in contents if isinstance(c, dict)] if isinstance(contents, list) else []


def _parts(content: Mapping[str, Any]) -> list[dict[str, Any]]:
    parts = content.get("parts")
    return [p for p in parts if isinstance(p, dict)] if isinstance(parts, list) else []


def _offers(body: Mapping[str, Any], name: str) -> bool:
    tools = body.get("tools")
    if not isinstance(tools, list):
        return False
    return any(
        isinstance(declaration, dict) and declaration.get("name") == name
        for tool in tools
        if isinstance(tool, dict)
        for declaration in tool.get("functionDeclarations") or ()
    )


def _wants_json(body: Mapping[str, Any]) -> bool:
    config = body.get("generationConfig")
    if not isinstance(config, dict):
        return False
    return config.get("responseMimeType") == "application/json" or "responseSchema" in config


def _candidate(parts: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "candidates": [
            {"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}
        ],
        "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
    }


def _parts_for(action: Action, stand_in: StandIn) -> list[dict[str, Any]]:
    if isinstance(action, Say):
        return [{"text": action.text}]
    name, args = tool_call(stand_in.tools, action)
    return [{"functionCall": {"name": name, "args": args}}]


class Gemini:
    """``models/NAME:generateContent``, ``:streamGenerateContent`` and ``:countTokens``."""

    def answer(self, path: str, body: Mapping[str, Any], stand_in: StandIn) -> Reply:
        if ":countTokens" in path:
            return json_reply({"totalTokens": 10})
        if "generatecontent" not in path.lower():
            return json_reply({})
        if _offers(body, stand_in.tools.shell):
            parts = _parts_for(stand_in.next_action(self.calls_made(body)), stand_in)
        elif _wants_json(body):
            # Side questions the CLI asks in JSON (who speaks next, which model to route to).
            answer = {"next_speaker": "user", "reasoning": "stand-in", "model_choice": "flash"}
            parts = [{"text": json.dumps(answer)}]
        else:
            parts = [{"text": "OK"}]
        chunk = _candidate(parts)
        if ":streamGenerateContent" in path:
            return Reply(200, "text/event-stream", sse(iter([(None, chunk)])))
        return json_reply(chunk)

    def calls_made(self, body: Mapping[str, Any]) -> int:
        return sum(
            1
            for content in _contents(body)
            if content.get("role") == "model"
            for part in _parts(content)
            if "functionCall" in part
        )

    def tail(self, body: Mapping[str, Any]) -> str:
        contents = _contents(body)
        last = max((i for i, c in enumerate(contents) if c.get("role") == "model"), default=-1)
        return "\n".join(
            part["text"] if "text" in part else json.dumps(part.get("functionResponse", part))
            for content in contents[last + 1 :]
            for part in _parts(content)
        )
