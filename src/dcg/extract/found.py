"""The value every extractor returns: one command line found in a file, located."""

from __future__ import annotations

from dcg.frozen import Frozen


class Found(Frozen):
    """One command line found in a file.

    ``line`` and ``column`` are 1-based and point at the command's first character in
    the file; ``text`` is the command line as the shell would read it (continuation
    lines and heredoc bodies included); ``source`` names the format (``shell``,
    ``package.json``, ``makefile``, ``github-actions`` …); ``label`` what in that format
    holds the command (a script name, a make target, a job); ``shell`` the language it is
    parsed as (``bash`` or ``powershell``).
    """

    __slots__ = ("column", "label", "line", "path", "shell", "source", "text")

    path: str
    line: int
    column: int
    text: str
    source: str
    label: str
    shell: str

    def __init__(
        self,
        path: str,
        line: int,
        column: int,
        text: str,
        source: str,
        label: str = "",
        shell: str = "bash",
    ) -> None:
        self._set("path", path)
        self._set("line", line)
        self._set("column", column)
        self._set("text", text)
        self._set("source", source)
        self._set("label", label)
        self._set("shell", shell)

    def __repr__(self) -> str:
        return f"Found({self.path}:{self.line}:{self.column} {self.source} {self.text!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Found):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def _key(self) -> tuple[str, int, int, str, str, str, str]:
        return (self.path, self.line, self.column, self.text, self.source, self.label, self.shell)
