"""OpenCode's two plugin APIs: which one is installed, and dcg's plugin for each.

``agents/opencode.py``'s spec writes the plugin; install and doctor use this module through
``dcg.commands._opencode``.

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

# OpenCode's file-writing tools the plugin sends to dcg: the adapter's FILE_TOOLS
# (agents/opencode.py, which cannot import this module; a test keeps the two equal).
FILE_TOOLS = ("apply_patch", "edit", "multiedit", "patch", "write")

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
    if served == BOTH and "server: DcgPlugin" not in (text or "") and api(found) != V2:
        # An older dcg's combined file: OpenCode v1 from 1.3.4 refuses the whole module.
        detail = (
            f"OpenCode {found or 'of unknown version'}: dcg's v1+v2 plugin from an older dcg "
            "has no server(), so OpenCode 1.3.4 and later does not load it: commands are "
            "not checked"
        )
        return False, True, detail
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


def load_verdict(found: str | None, text: str | None, path: str | None) -> tuple[bool, bool, str]:
    """``(ok, fatal, detail)``: whether the OpenCode found (version ``found``) runs the
    plugin ``text`` dcg installed at ``path``: loaded by that OpenCode itself where it
    answers, else judged by its version."""
    ok, fatal, detail = loads(found, text)
    real = real_load(text) if text and path else None
    if real is not None:
        ok, fatal, detail = real[0], not real[0], f"OpenCode {found or '?'}: {real[1]}"
    return ok, fatal, detail


def real_load(text: str, timeout: float = 60) -> tuple[bool, str] | None:
    """Load ``text`` as a global plugin with the OpenCode installed here, in a throwaway
    home (the way it loads your ``plugins/``): ``(loaded, detail)``; None when there is
    no OpenCode to ask or it did not answer."""
    import tempfile

    exe = shutil.which("opencode")
    if exe is None:
        return None
    with tempfile.TemporaryDirectory(prefix="dcg-opencode-") as home:
        plugins = os.path.join(home, ".config", "opencode", "plugins")
        os.makedirs(plugins)
        target = os.path.join(plugins, "dcg.js")
        with open(target, "w", encoding="utf-8") as f:
            f.write(text)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "OPENCODE"))}
        env |= {"HOME": home, "XDG_CONFIG_HOME": os.path.join(home, ".config")}
        for flag in ("MODELS_FETCH", "DEFAULT_PLUGINS", "LSP_DOWNLOAD", "AUTOUPDATE"):
            env[f"OPENCODE_DISABLE_{flag}"] = "1"
        argv = [exe, "debug", "config", "--print-logs", "--log-level", "ERROR"]
        try:
            run = subprocess.run(argv, capture_output=True, text=True, timeout=timeout,
                                 env=env, cwd=home)  # fmt: skip
        except (OSError, subprocess.TimeoutExpired):
            return None
    for line in (run.stderr + run.stdout).splitlines():
        if "failed to load plugin" in line and "dcg.js" in line:
            why = line.partition('error="')[2].rstrip('"') or line
            return False, f"OpenCode refuses dcg's plugin: {why[:200]}"
    if run.returncode != 0 or "dcg.js" not in run.stdout:
        return None
    return True, "loaded by the OpenCode installed here (opencode debug config)"


def installed_plugin(command: str) -> str:
    """dcg's plugin for the OpenCode installed here, running ``command``."""
    import shlex

    return plugin(shlex.split(command), api(version()))


def plugin_command(text: str) -> str | None:
    """The dcg command a plugin file dcg wrote runs; None when it is not dcg's file."""
    import shlex

    match = re.search(r"^const DCG = (\[.*\]);$", text, re.M)
    if match is None or "dcg-plugin-shim" not in text:
        return None
    try:
        argv = json.loads(match.group(1))
    except ValueError:
        return None
    return shlex.join(argv) if isinstance(argv, list) and argv else None


def plugin_covers(text: str) -> bool:
    """Whether a plugin file dcg wrote sends the file tools too (an older one: bash only)."""
    match = re.search(r"^const FILE_TOOLS = new Set\((\[.*\])\);$", text, re.M)
    try:
        found = json.loads(match.group(1)) if match else []
    except ValueError:
        found = []
    return isinstance(found, list) and set(FILE_TOOLS) <= set(found)


def plugin(argv: list[str], which: str) -> str:
    """dcg's plugin file serving API ``which`` (v1, v2 or both), running ``argv``."""
    head = f"// dcg-plugin-shim (OpenCode {which}): written by `dcg install`; "
    head += "`dcg uninstall` removes it.\n"
    body = _CORE.replace("__DCG_ARGV__", json.dumps(argv))
    body = body.replace("__FILE_TOOLS__", json.dumps(sorted(FILE_TOOLS)))
    if which in (V1, BOTH):
        body += _V1
    if which == BOTH:
        # OpenCode v1 from 1.3.4 reads a module with a default export as a v1 plugin module
        # and requires its server(): the same hooks as the named export (v2 reads setup).
        body += _V2.replace('  id: "dcg",\n', f'  id: "dcg",\n{_SERVER}', 1)
    elif which == V2:
        body += _V2
    return head + body


_SERVER = "  // OpenCode v1 (1.3.4 and later) runs this.\n  server: DcgPlugin,\n"


_CORE = """\
// Runs every shell command OpenCode is about to execute, and every file its file tools are
// about to write, past dcg (destructive command guard).
import { spawnSync } from "node:child_process";
import { existsSync, realpathSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";

const DCG = __DCG_ARGV__;
const SHELLS = new Set(["bash", "shell"]);
// OpenCode's tools that write files: dcg judges the paths they change (its own files, the
// agents' hook settings). Their text is left out: it never names a file.
const FILE_TOOLS = new Set(__FILE_TOOLS__);
const TEXT = new Set(["content", "oldString", "newString"]);
const warnings = new Map();

function fileArgs(args) {
  if (Array.isArray(args)) return args.map(fileArgs);
  if (args === null || typeof args !== "object") return args;
  const out = {};
  for (const [key, value] of Object.entries(args)) if (!TEXT.has(key)) out[key] = fileArgs(value);
  return out;
}

// The paths a file tool's arguments name: its own, a multiedit's, a patch's files.
const HEADS = ["*** Add File:", "*** Update File:", "*** Delete File:", "*** Move to:"];
function named(args) {
  const out = [];
  for (const key of ["filePath", "path"]) if (typeof args?.[key] === "string") out.push(args[key]);
  for (const edit of Array.isArray(args?.edits) ? args.edits : []) out.push(...named(edit));
  for (const key of ["patchText", "patch"]) {
    if (typeof args?.[key] !== "string") continue;
    for (const line of args[key].split("\\n")) {
      const head = HEADS.find((h) => line.startsWith(h));
      if (head) out.push(line.slice(head.length).trim());
    }
  }
  return out.filter((p) => p);
}

// Where a path really leads: the links of its deepest existing directory resolved (a link
// the user made into OpenCode's config must not hide it); null when nothing changes.
function real(path, directory) {
  try {
    const full = resolve(typeof directory === "string" ? directory : "/", path);
    const rest = [];
    let at = full;
    while (!existsSync(at) && dirname(at) !== at) {
      rest.unshift(basename(at));
      at = dirname(at);
    }
    const found = join(realpathSync(at), ...rest);
    return found === full ? null : found;
  } catch {
    return null;
  }
}

// What dcg is asked about a tool call in the session's `directory`: null for a tool that
// neither runs nor writes. A command runs in its `workdir` (relative: to the directory);
// a file tool resolves a relative path against the directory, whatever else it is given.
function request(tool, args, directory, sessionID) {
  const name = String(tool ?? "").toLowerCase();
  const home = typeof directory === "string" ? directory : undefined;
  const session = typeof sessionID === "string" ? sessionID : undefined;
  if (SHELLS.has(name)) {
    const workdir = typeof args?.workdir === "string" && args.workdir ? args.workdir : undefined;
    const cwd = workdir && home ? resolve(home, workdir) : (workdir ?? home);
    return { tool: "bash", command: String(args?.command ?? ""), cwd, sessionID: session };
  }
  if (FILE_TOOLS.has(name)) {
    const resolved = named(args).map((p) => real(p, home)).filter((p) => p);
    const body = { tool: name, args: fileArgs(args ?? {}), cwd: home, sessionID: session };
    return resolved.length ? { ...body, resolved } : body;
  }
  return null;
}

// dcg's answer for one tool call: null (no opinion) or {decision, reason, message}.
function check(body) {
  if (!body) return null;
  const payload = JSON.stringify(body);
  const run = spawnSync(DCG[0], DCG.slice(1), { input: payload, encoding: "utf8", timeout: 10000 });
  if (run.error || (run.status !== 0 && !run.stdout)) {
    // Fail closed: a guard that cannot run must not wave commands or writes through.
    const why = run.error ?? run.stderr;
    const what = body.tool === "bash" ? "command" : "file write";
    const reason = `dcg could not check this ${what} (${why}); ask the user to run dcg doctor.`;
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
    const args = output.args ?? {};
    const body = request(input.tool, args, directory, input.sessionID);
    if (!body) return;
    const toast = (message, variant) => client?.tui?.showToast?.({ body: { message, variant } });
    await act(check(body), input.callID, toast);
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
      const args = event.input ?? event.args ?? {};
      const body = request(event.tool, args, ctx.location?.directory, event.sessionID);
      if (!body) return;
      await act(check(body), event.callID ?? event.id, log);
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
