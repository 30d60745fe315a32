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


def reply(request: HookRequest, text: str) -> Reply:
    # Agents whose top-level ``systemMessage`` is shown to the person only and may stand
    # alone say so in their module (``SYSTEM_MESSAGE``); its adapter read the request.
    from dcg import agents

    module = agents.adapter(request.agent) if request.agent in agents.AGENTS else None
    if getattr(module, "SYSTEM_MESSAGE", False):
        return Reply(jsonfast.dumps({"systemMessage": text}) + "\n", "", 0)
    return Reply()
