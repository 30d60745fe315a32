"""Rule checks that need more than a regex: SQL text with its string literals blanked."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.model import Check
    from dcg.shell.command import Command


def strip_sql_strings(text: str) -> str:
    """``text`` with every closed SQL string literal ('…', "…", doubled quotes) emptied.

    An unterminated literal is left as it is: SQL that the server would reject anyway
    must not hide a statement from the rules.
    """
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c not in "'\"":
            out.append(c)
            i += 1
            continue
        j = i + 1
        while j < n:
            if text[j] == c:
                if j + 1 < n and text[j + 1] == c:
                    j += 2
                    continue
                break
            j += 2 if text[j] == "\\" else 1
        if j >= n:
            out.append(text[i:])
            break
        out.append(c + c)
        i = j + 1
    return "".join(out)


def outside_sql_strings(pattern: str) -> Check:
    """A check that ``pattern`` also matches once SQL string literals are blanked, so that
    `INSERT … VALUES ('remember to DROP TABLE x')` is data, not a DROP."""

    def check(command: Command, cwd: str) -> bool:
        from dcg.engine import compiled

        return compiled(pattern).search(strip_sql_strings(command.text)) is not None

    return check
