"""The draft's extra hook-output fields, outside every agent's documented keys (decisions 10.9).

Each agent declares the keys its documentation names, per JSON object path (``""`` is the
top level), as ``OUTPUT_FIELDS`` in its module, with the source and the date read in its
``spec()`` (:func:`dcg.agents.output_fields` reads them); tests/agents/test_adapters.py
fails when an adapter writes anything else. The
draft's extra fields (:data:`DETAILS`) are added inside ``hookSpecificOutput`` only with
``[hook] details = true`` / ``DCG_HOOK_DETAILS=1``, and only for an agent whose module
says ``TAKES_DETAILS`` (never for a strict schema such as Codex's).
"""

from __future__ import annotations

# The graduated-response draft's fields, without the approval codes (decisions.md 10.2).
DETAILS = frozenset(
    {
        "responseLevel",
        "sessionOccurrence",
        "sessionThreshold",
        "historyOccurrence",
        "historyThreshold",
        "ruleId",
        "packId",
        "severity",
        "warningMessage",
        "snapshotId",
        "remediation",
    }
)
CODE_FIELDS = frozenset({"confirmCode", "allowOnceCode"})
