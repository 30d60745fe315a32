"""``faketime`` for the tests that move the wall clock under the installed hook.

Without it those tests are skipped on a developer's machine; under CI (``CI`` set) they
fail instead, so a runner without the tool cannot pass them silently. Debian and Ubuntu:
``apt-get install faketime`` (it pulls in ``libfaketime``).
"""

from __future__ import annotations

import os
import shutil

import pytest


def faketime(offset: str) -> list[str]:
    """The command prefix that runs a program with the wall clock moved by ``offset``
    (``-2d``, ``+2d``): only the wall clock; the kernel's clock since boot is real."""
    exe = shutil.which("faketime")
    if exe is None:
        if os.environ.get("CI"):
            pytest.fail("faketime is not installed (apt-get install faketime)")
        pytest.skip("faketime is not installed")
    return [exe, "-f", offset]
