"""OpenCode's plugin for the commands: the installed version, dcg's plugin, whether it loads.

The plugin itself and the version probe live with the agent (:mod:`dcg.agents._opencode`);
this module is what install, uninstall and doctor import.
"""

from __future__ import annotations

from dcg.agents._opencode import (
    BOTH,
    V1,
    V2,
    api,
    installed_plugin,
    load_verdict,
    loads,
    plugin,
    plugin_command,
    real_load,
    variant,
    version,
)

__all__ = [
    "BOTH",
    "V1",
    "V2",
    "api",
    "installed_plugin",
    "load_verdict",
    "loads",
    "plugin",
    "plugin_command",
    "real_load",
    "variant",
    "version",
]
