"""Secrets out of command text before it is stored or shown: history now, audit export next.

:func:`redact` replaces what looks like a credential with ``***`` and keeps the rest, so a
person can still read what ran: passwords in URLs (``https://me:***@host``), values of
``--password=…``/``--token …``-style options and of ``*_TOKEN=``/``*PASSWORD=``-style
assignments, ``Authorization``/``Bearer``/``Basic`` header values, ``curl -u user:pass``,
``mysql -pSECRET``, AWS access key ids and the well-known token formats (GitHub, GitLab,
Slack, OpenAI, Stripe, Google, npm, JWTs, PEM private keys). :func:`for_record` also
makes it one line and truncates it, after redacting, so a cut never leaves half a secret.

Called by the hook for matched commands only; patterns go through :mod:`dcg.recache`, so
a warm cache needs no ``re`` import. Replacements are functions, never templates, for
the same reason.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from re import Match, Pattern

MASK = "***"
LIMIT = 240
# for_record redacts at most this many characters: some patterns cost the square of the
# text they scan (17 ms at this size), and a record keeps only ``limit`` characters anyway.
WINDOW = 4096

_SECRET_WORD = r"(?:pass(?:word|wd)?|pwd|secret|token|api[-_]?key|access[-_]?key|auth|credentials?)"
# (pattern, index of the group to keep before the mask, or -1 to mask the whole match)
_RULES: tuple[tuple[str, int], ...] = (
    # -----BEGIN … PRIVATE KEY----- … -----END … PRIVATE KEY-----
    (r"-----BEGIN [A-Z ]*PRIVATE KEY-----.*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)", -1),
    # scheme://user:password@host
    (r"([a-zA-Z][a-zA-Z0-9+.-]*://[^\s:/@'\"]*:)[^\s@/'\"]+(?=@)", 1),
    # Authorization: Bearer x / token x / Basic x, and a bare "Bearer x"
    (r"(?i)(authorization\s*[:=]\s*(?:bearer|token|basic|digest)?\s*)[^\s'\"]+", 1),
    (r"(?i)(\b(?:bearer|basic)\s+)[A-Za-z0-9._~+/=-]{8,}", 1),
    # --password=x, --db-password x, --api-key=x, --token x (not --token-file)
    (
        r"(?i)((?<![\w-])--?[\w-]*" + _SECRET_WORD + r"(?![\w-]*(?:file|path|env|stdin))"
        r"[\w-]*(?:=|\s+))(?![-<>|&;])[^\s'\"]+",
        1,
    ),
    # PASSWORD=x, GITHUB_TOKEN=x, AWS_SECRET_ACCESS_KEY=x, export DB_PASS="x"
    (
        r"(?i)(\b[\w]*" + _SECRET_WORD + r"[\w]*=)(?:\"[^\"]*\"|'[^']*'|[^\s'\"]+)",
        1,
    ),
    # curl -u user:password, --user user:password
    (r"((?<![\w-])(?:-u|--user)[\s=]+['\"]?[^\s:'\"]+:)[^\s'\"]+", 1),
    # mysql -pSECRET (the password glued to -p)
    (r"(\bmysql(?:dump|admin)?\b[^|;&]*?\s-p)[^\s'\"]+", 1),
    # token formats that are secrets wherever they appear
    (r"\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b", -1),
    (r"\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})", -1),
    (r"\bglpat-[A-Za-z0-9_-]{20,}", -1),
    (r"\bxox[abprs]-[A-Za-z0-9-]{10,}", -1),
    (r"\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}", -1),
    (r"\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}", -1),
    (r"\bAIza[0-9A-Za-z_-]{35}\b", -1),
    (r"\bnpm_[A-Za-z0-9]{36}\b", -1),
    (r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]+", -1),
)
_compiled: list[tuple[Pattern[str], int]] = []


def _patterns() -> list[tuple[Pattern[str], int]]:
    if not _compiled:
        from dcg import recache

        for pattern, keep in _RULES:
            # DOTALL only for the private key block, which spans lines.
            flagged = "(?s)" + pattern if pattern.startswith("-----BEGIN") else pattern
            _compiled.append((recache.compile(flagged), keep))
    return _compiled


def _masker(keep: int) -> Callable[[Match[str]], str]:
    def mask(m: Match[str]) -> str:
        return (m.group(keep) if keep >= 0 else "") + MASK

    return mask


def redact(text: str) -> str:
    """``text`` with every credential-looking part replaced by ``***``."""
    if not text:
        return text
    for rx, keep in _patterns():
        text = rx.sub(_masker(keep), text)
    return text


def for_record(text: str, limit: int = LIMIT) -> str:
    """One line of at most ``limit`` characters, secrets redacted first.

    Only the first :data:`WINDOW` characters are read (redaction stays within the
    hook's time budget on a megabyte of text); the word the window cuts in two is left
    out, so that half a secret never reaches the record.
    """
    window = max(WINDOW, 4 * limit)
    cut = len(text) > window
    if cut:
        text = text[:window]
        end = max(text.rfind(c) for c in " \t\r\n")
        text = text[:end] if end > 0 else ""
    one = " ".join(redact(text).split())
    if cut:
        one = one[: limit - 2] + " …" if one else "…"
    return one if len(one) <= limit else one[: limit - 1] + "…"
