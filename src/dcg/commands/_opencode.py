"""OpenCode's two plugin APIs: which one is installed, and dcg's plugin for each.

OpenCode v1 runs a module's exported plugin functions, each returning hooks such as
``"tool.execute.before"``; OpenCode v2 runs only a module whose default export is a
definition ``{id, setup(ctx)}`` (``Plugin.define`` returns such an object, and a plain
object is accepted), and ``setup`` registers ``ctx.tool.hook("execute.before", …)``.
Both read ``plugins/`` (v2 also ``plugin/``), so dcg's ``plugins/dcg.js`` is chosen by
version: the v1 plugin for 1.x, the v2 plugin for 2.x and later, and, when the version
cannot be found, one file with both (a named v1 export and a default v2 definition).

In both APIs a hook blocks a tool call by throwing: the error's message is what the model
reads. dcg's ``message`` (for the person only, it may hold an approval code) goes to a
TUI toast in v1 (``client.tui.showToast``) and to OpenCode's log in v2, where no
documented user-only channel exists.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess

# The plugin file's first line names the APIs it serves; doctor reads it back.
V1, V2, BOTH = "v1", "v2", "v1+v2"
_MARK = re.compile(r"^// dcg-plugin-shim \(OpenCode (v1|v2|v1\+v2)\)", re.M)


def version() -> str | None:
    """The installed OpenCode's version: ``opencode --version``, else its package.json."""
    exe = shutil.which("opencode")
    if exe is None:
        return None
    try:
        run = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=10)
        found = re.search(r"\d+\.\d+(?:\.\d+)?\S*", run.stdout or run.stderr or "")
    except (OSError, subprocess.TimeoutExpired):
        found = None
    if found:
        return found.group(0)
    return _package_version(os.path.realpath(exe))


def _package_version(exe: str) -> str | None:
    """The version in the package.json of the npm package ``exe`` belongs to."""
    directory = os.path.dirname(exe)
    for _ in range(6):
        try:
            with open(os.path.join(directory, "package.json"), encoding="utf-8") as f:
                data = json.load(f)
        except (OSError, ValueError):
            data = None
        if isinstance(data, dict) and "opencode" in str(data.get("name", "")):
            value = data.get("version")
            return value if isinstance(value, str) else None
        parent = os.path.dirname(directory)
        if parent == directory:
            break
        directory = parent
    return None


def api(found: str | None) -> str:
    """The plugin API to write for OpenCode ``found``: v1, v2, or both when unknown."""
    major = (found or "").split(".", 1)[0]
    if not major.isdigit():
        return BOTH
    return V1 if int(major) < 2 else V2


def variant(text: str) -> str | None:
    """The APIs a plugin file dcg wrote serves (None: not dcg's, or an older dcg's v1)."""
    match = _MARK.search(text)
    if match:
        return match.group(1)
    return V1 if "dcg-plugin-shim" in text else None


def loads(found: str | None, text: str | None) -> tuple[bool, bool, str]:
    """``(ok, fatal, detail)``: whether the OpenCode found runs dcg's installed plugin."""
    served = variant(text or "") or V1
    if found is None:
        if served == BOTH:
            return True, False, "OpenCode version unknown; the plugin serves v1+v2 (both APIs)"
        detail = (
            f"OpenCode version unknown (`opencode --version` not found); the plugin is {served}"
        )
        return True, False, detail
    wanted = api(found)
    if wanted == BOTH or wanted in served.split("+"):
        return True, False, f"OpenCode {found} ({wanted}): the plugin serves {served}"
    detail = (
        f"OpenCode {found} ({wanted}) does not run dcg's {served} plugin: commands are not checked"
    )
    return False, True, detail


def plugin(argv: list[str], which: str) -> str:
    """dcg's plugin file serving API ``which`` (v1, v2 or both), running ``argv``."""
    head = f"// dcg-plugin-shim (OpenCode {which}): written by `dcg install`; "
    head += "`dcg uninstall` removes it.\n"
    body = _CORE.replace("__DCG_ARGV__", json.dumps(argv))
    if which in (V1, BOTH):
        body += _V1
    if which in (V2, BOTH):
        body += _V2
    return head + body


_CORE = """\
// Runs every shell command OpenCode is about to execute past dcg (destructive command guard).
import { spawnSync } from "node:child_process";

const DCG = __DCG_ARGV__;
const SHELLS = new Set(["bash", "shell"]);
const warnings = new Map();

// dcg's answer for one command: null (no opinion) or {decision, reason, message}.
function check(command, cwd, sessionID) {
  const payload = JSON.stringify({
    tool: "bash",
    command: String(command ?? ""),
    cwd: typeof cwd === "string" ? cwd : undefined,
    sessionID: typeof sessionID === "string" ? sessionID : undefined,
  });
  const run = spawnSync(DCG[0], DCG.slice(1), { input: payload, encoding: "utf8", timeout: 10000 });
  if (run.error || (run.status !== 0 && !run.stdout)) {
    // Fail closed: a guard that cannot run must not wave commands through.
    const why = run.error ?? run.stderr;
    const reason = `dcg could not check this command (${why}); ask the user to run dcg doctor.`;
    return { decision: "deny", reason };
  }
  if (!run.stdout.trim()) return null;
  try {
    return JSON.parse(run.stdout);
  } catch {
    const reason = "dcg gave an answer that is not JSON; ask the user to run dcg doctor.";
    return { decision: "deny", reason };
  }
}

// Act on dcg's answer: tell the person, then throw (the model reads the error) or remember
// the warning for the tool's output. `message` is for the person only: never thrown.
async function act(reply, callID, notify) {
  if (!reply) return;
  if (reply.message) {
    try {
      await notify(reply.message, reply.decision === "deny" ? "error" : "warning");
    } catch {}
  }
  if (reply.decision === "deny") throw new Error(reply.reason);
  if (reply.decision === "warn" && callID !== undefined) warnings.set(callID, reply.reason);
}

function warned(callID, output) {
  const warning = warnings.get(callID);
  if (warning === undefined) return output;
  warnings.delete(callID);
  return `${warning}\\n\\n${output ?? ""}`;
}
"""

_V1 = """
// OpenCode v1: a named plugin function returning hooks.
export const DcgPlugin = async ({ directory, client }) => ({
  "tool.execute.before": async (input, output) => {
    if (!SHELLS.has(String(input.tool ?? "").toLowerCase())) return;
    const args = output.args ?? {};
    const toast = (message, variant) => client?.tui?.showToast?.({ body: { message, variant } });
    await act(check(args.command, args.workdir ?? directory, input.sessionID), input.callID, toast);
  },
  "tool.execute.after": async (input, output) => {
    if (warnings.has(input.callID)) output.output = warned(input.callID, output.output);
  },
});
"""

_V2 = """
// OpenCode v2: a default-exported definition {id, setup}; setup registers the tool hooks.
export default {
  id: "dcg",
  async setup(ctx) {
    const log = (message) => console.warn(`[dcg] ${message}`);
    await ctx.tool.hook("execute.before", async (event) => {
      if (!SHELLS.has(String(event.tool ?? "").toLowerCase())) return;
      const args = event.input ?? event.args ?? {};
      const cwd = args.workdir ?? ctx.location?.directory;
      await act(check(args.command, cwd, event.sessionID), event.callID ?? event.id, log);
    });
    await ctx.tool.hook("execute.after", async (event) => {
      const callID = event.callID ?? event.id;
      if (!warnings.has(callID)) return;
      const warning = warned(callID, "");
      // The text the model reads of the tool's result (`output`, or `result` when a string).
      for (const key of ["output", "result"]) {
        if (typeof event[key] === "string") event[key] = warning + event[key];
      }
    });
  },
};
"""
