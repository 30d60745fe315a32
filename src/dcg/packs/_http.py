"""Pattern fragments for rules about HTTP requests sent with curl, wget, HTTPie or xh.

Several packs recognise a destructive API call by the request's method and URL rather
than by a dedicated CLI. The fragments here are plain strings, joined into a rule's
pattern when the pack module is imported (nothing is compiled here).
"""

# Registry keywords for such packs: the clients' command words. "http" also finds
# HTTPie's `https` and any URL with a scheme, "xh" also `xhs`.
CLIENTS = ("curl", "wget", "http", "xh")


def sends(methods: str) -> str:
    """Start of a pattern: an HTTP client run that sends one of ``methods`` ("DELETE", "PUT|PATCH").

    The method is matched case-insensitively because curl sends whatever it is given and
    many servers accept any case. Forms: curl ``-X M``/``-XM``/``-sSX M``/``--request[=]M``,
    wget ``--method[=]M``, HTTPie/xh ``http M URL``. The fragment ends with ``.*``; what a
    pack appends must start with a literal (``api\\.stripe\\.com/``, ``/indexes/``), so that
    the backtracking ``.*`` costs one cheap comparison per character and never tries a
    complex sub-pattern at every word.
    """
    m = f"(?i:{methods})"
    return (
        rf"^(?:curl\s(?=(?:.*\s)?(?:-[A-Za-z]*X\s?|--request[=\s]){m}(?:\s|$))"
        rf"|wget\s(?=(?:.*\s)?--method[=\s]{m}(?:\s|$))"
        rf"|(?:https?|xhs?)\s(?=(?:.*\s)?{m}\s)).*"
    )


# Start of a pattern: an HTTP client run, whatever the method; for endpoints that destroy
# whichever way they are called (`_delete_by_query`, `/clear`) and whose read-only
# counterparts are other URLs. Ends with ``.*`` like ``sends``.
ANY = r"^(?:curl|wget|https?|xhs?)\s.*"

# Like ``sends("POST")``, also when a body implies the POST (curl -d/--data*/-F/--json); for
# endpoints where GET lists and POST creates (refunds, payouts).
POSTS = (
    r"^(?:curl\s(?=(?:.*\s)?(?:(?:-[A-Za-z]*X\s?|--request[=\s])(?i:post)(?:\s|$)"
    r"|-[A-Za-z]*[dF](?:\s|$)|--(?:data[\w-]*|form|json)(?:[=\s]|$)))"
    r"|wget\s(?=(?:.*\s)?--(?:method[=\s](?i:post)\s|post-(?:data|file)[=\s]))"
    r"|(?:https?|xhs?)\s(?=(?:.*\s)?(?i:post)\s)).*"
)

# The rest of a host name after a recognised part of it, and an optional port.
HOST_REST = r"[^\s/:]*(?::\d+)?"

# End of a URL path: an optional trailing slash, then a query string, a fragment or the end
# of the word.
END = r"/?(?:[?#][^\s]*)?(?:\s|$)"

# One path segment.
SEG = r"[^\s/?#]+"
