"""A one-line notice for the person, in the agent's user-only channel, deciding nothing.

Used when an everyday write was kept silently: the reply carries no decision, so the
agent's own permission flow is unchanged, and the model is not told (nothing happened
that it must act on). Agents without a channel only the person reads get no output.
"""

from __future__ import annotations

from dcg import jsonfast
from dcg.hookio import Reply

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.hookio import HookRequest

# Agents whose top-level ``systemMessage`` is shown to the person only and may stand alone.
_SYSTEM_MESSAGE = frozenset(("claude", "codex", "gemini", "factory", "auggie"))


def reply(request: HookRequest, text: str) -> Reply:
    if request.agent in _SYSTEM_MESSAGE:
        return Reply(jsonfast.dumps({"systemMessage": text}) + "\n", "", 0)
    return Reply()
