"""``os.environ`` without ``os``: the process environment as a dict of strings.

Decoded the way ``os.environ`` decodes it (``os.fsdecode``). Where ``os`` is already
imported (the command-line interface, tests), it is ``os.environ`` itself, so that a
change made through either is seen by both; the hook never changes its environment.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import MutableMapping


def _environ() -> MutableMapping[str, str]:
    real = sys.modules.get("os")
    if real is not None:
        shared: MutableMapping[str, str] = real.environ
        return shared
    import posix

    enc, errors = sys.getfilesystemencoding(), sys.getfilesystemencodeerrors()
    return {k.decode(enc, errors): v.decode(enc, errors) for k, v in posix.environ.items()}


environ = _environ()
