"""GitLab CI: ``script:``, ``before_script:`` and ``after_script:`` of every job."""

from __future__ import annotations

from dcg.extract import _yaml
from dcg.extract.found import Found


def commands(path: str, text: str) -> list[Found]:
    return _yaml.commands(path, text, ("script", "before_script", "after_script"), "gitlab-ci")
