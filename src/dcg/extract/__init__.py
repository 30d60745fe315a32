"""Commands written down in files (scripts, CI, build files), each with file, line and column.

Stdlib-only and import-light: the hook resolves ``npm run NAME`` and ``make TARGET``
with :mod:`dcg.extract.packagejson` and :mod:`dcg.extract.makefile`, and ``dcg scan``
uses :func:`extract` for every format. One module per source format; the registry
below is written by hand (no discovery).
"""

from __future__ import annotations

from dcg.extract.found import Found

__all__ = ["FORMATS", "Found", "extract", "format_of"]


def format_of(path: str, head: str, *, include_docs: bool = False) -> str | None:
    """The format name of the file at repository-relative ``path`` (``None``: not one).

    ``head`` is the start of the file's text (for the shebang of an extensionless script).
    """
    name = path.rsplit("/", 1)[-1]
    lower = name.lower()
    parts = path.split("/")
    if lower == "package.json":
        return "package.json"
    if lower in ("makefile", "gnumakefile") or lower.endswith((".mk", ".make")):
        return "makefile"
    if lower in ("justfile", ".justfile") or lower.endswith(".just"):
        return "justfile"
    if lower == "dockerfile" or lower.startswith("dockerfile.") or lower.endswith(".dockerfile"):
        return "dockerfile"
    is_yaml = lower.endswith((".yml", ".yaml"))
    if is_yaml and len(parts) >= 3 and parts[-3] == ".github" and parts[-2] == "workflows":
        return "github-actions"
    if is_yaml and lower.startswith(".gitlab-ci"):
        return "gitlab-ci"
    if is_yaml and lower.split(".")[0] in ("taskfile", "taskfile.dist"):
        return "taskfile"
    if is_yaml and (lower.startswith("docker-compose") or lower.startswith("compose.")):
        return "docker-compose"
    if include_docs and lower.endswith((".md", ".markdown")):
        return "markdown"
    from dcg.extract.script import script_shell

    if script_shell(name, head) is not None:
        return "shell"
    return None


def extract(path: str, text: str, *, include_docs: bool = False) -> list[Found]:
    """Every command line in the file at ``path`` whose text is ``text``."""
    fmt = format_of(path, text[:256], include_docs=include_docs)
    if fmt is None:
        return []
    module = __import__(f"dcg.extract.{_MODULES[fmt]}", fromlist=["commands"])
    found: list[Found] = module.commands(path, text)
    return found


# The hand-written registry: format name -> module of dcg.extract.
_MODULES = {
    "shell": "script",
    "package.json": "packagejson",
    "makefile": "makefile",
    "justfile": "justfile",
    "dockerfile": "dockerfile",
    "github-actions": "actions",
    "gitlab-ci": "gitlab",
    "taskfile": "taskfile",
    "docker-compose": "compose",
    "markdown": "markdown",
}
FORMATS = tuple(_MODULES)
