"""Every example of every rule of every pack, run through the real engine."""

from __future__ import annotations

import pytest

from dcg.engine import candidate_packs, evaluate, has_keyword, scan_text
from dcg.model import SEVERITY_RANK, Pack, Rule
from dcg.packs import KEYWORDS, all_ids, load

CWD = "/home/dev/project"


def _rules() -> list[tuple[Pack, Rule]]:
    return [(load(pid), rule) for pid in all_ids() for rule in load(pid).rules]


def _examples(kind: str) -> list[object]:
    params = []
    for pack, rule in _rules():
        for i, example in enumerate(getattr(rule, kind)):
            rule_id = pack.rule_id(rule)
            params.append(pytest.param(pack, rule, example, id=f"{rule_id}[{kind}-{i}]"))
    return params


@pytest.mark.parametrize(("pack", "rule", "example"), _examples("blocks"))
def test_blocks(pack: Pack, rule: Rule, example: str) -> None:
    result = evaluate(example, [pack.id], cwd=CWD)
    ids = [m.rule_id for m in result.matches]
    assert ids, f"{example!r} was not stopped"
    top = result.matches[0]
    assert top.rule_id == pack.rule_id(rule) or (
        top.pack.id == pack.id and SEVERITY_RANK[top.severity] > SEVERITY_RANK[rule.severity]
    ), f"{example!r} matched {ids}"


@pytest.mark.parametrize(("pack", "rule", "example"), _examples("allows"))
def test_allows(pack: Pack, rule: Rule, example: str) -> None:
    result = evaluate(example, [pack.id], cwd=CWD)
    assert pack.rule_id(rule) not in [m.rule_id for m in result.matches]


@pytest.mark.parametrize(("pack", "rule", "example"), _examples("blocks"))
def test_blocks_reach_rule_through_prefilter(pack: Pack, rule: Rule, example: str) -> None:
    """No dead rules: the keyword prefilters let every blocked example through."""
    text = scan_text(example)
    assert candidate_packs(text, [pack.id]) == [pack.id]
    if rule.keywords:
        assert any(has_keyword(text, k) for k in rule.keywords), rule.keywords


def test_every_rule_documents_itself() -> None:
    for pack, rule in _rules():
        rule_id = pack.rule_id(rule)
        assert rule.severity in SEVERITY_RANK, rule_id
        assert rule.reason and "\n" not in rule.reason, rule_id
        assert rule.explanation and rule.alternative, rule_id
        if rule.pattern != r"(?!)":
            assert len(rule.blocks) >= 1 and len(rule.allows) >= 1, rule_id


def test_rule_ids_are_unique_and_well_formed() -> None:
    seen: set[str] = set()
    for pack, rule in _rules():
        rule_id = pack.rule_id(rule)
        assert rule_id not in seen
        seen.add(rule_id)
        category, _, name = pack.id.partition(".")
        assert category and name and pack.id == pack.id.lower()
        assert rule.name == rule.name.lower() and " " not in rule.name


def _excused_examples() -> list[object]:
    params = []
    for pid in all_ids():
        pack = load(pid)
        if not pack.safe:
            continue
        safe_cmds = [
            ex for rule in pack.rules for ex in rule.allows if evaluate(ex, [pid], cwd=CWD).excused
        ]
        blocked = [ex for rule in pack.rules for ex in rule.blocks]
        if safe_cmds and blocked:
            params.append(pytest.param(pid, safe_cmds[0], blocked[0], id=pid))
    return params


@pytest.mark.parametrize(("pack_id", "safe", "blocked"), _excused_examples())
def test_safe_pattern_excuses_only_its_segment(pack_id: str, safe: str, blocked: str) -> None:
    for line in (f"{safe} && {blocked}", f"{blocked}; {safe}", f"{safe} | {blocked}"):
        assert evaluate(line, [pack_id], cwd=CWD).matches, line


# Field names and common values of the hook payloads of every supported agent, as the
# prefilter sees them (quotes stripped: `"toolName": "bash",` is `toolname: bash,`).
PAYLOAD_WORDS = (
    "session_id transcript_path /home/dev/.claude/projects/-home-dev-app/abc.jsonl "
    "/home/dev/.codex/sessions/2026/rollout.jsonl cwd permission_mode default plan acceptEdits "
    "auto dontAsk bypassPermissions hook_event_name PreToolUse tool_name: Bash, PowerShell "
    "tool_input command description timeout run_in_background tool_use_id toolu_01 agent_id "
    "agent_type turn_id model gpt-5-codex BeforeTool timestamp run_shell_command sessionId "
    "toolName: bash, toolArgs beforeShellExecution conversation_id generation_id workspace_roots "
    "agent_action_name pre_run_command trajectory_id execution_id tool_info command_line "
    "sessionID tool"
)


def test_payload_fields_trigger_no_keyword() -> None:
    """The hook scans the raw payload first; its fixed fields must not defeat that scan."""
    text = scan_text(PAYLOAD_WORDS)
    hits = [(p, k) for p in all_ids() for k in KEYWORDS[p] if has_keyword(text, k)]
    assert hits == []
