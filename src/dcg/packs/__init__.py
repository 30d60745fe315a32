"""The hand-written registry of every pack: id, module and prefilter keywords.

Keywords live here rather than in the pack modules so that the hook can decide that a
command concerns no enabled pack without importing a single pack module. A keyword
counts when it occurs at the start of a word of the command line after quotes and
backslashes are removed and the text is lower-cased (see ``dcg.engine``). The test
suite proves that every example a rule blocks gets through its pack's keywords.

Adding a pack is one module under ``dcg/packs/<category>/<name>.py`` defining ``PACK``
and one line below.
"""

from __future__ import annotations

from dcg.agents import START_KEYWORDS, keyword_dirs

# typing is not imported at run time: it costs more than the hook's whole budget.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.model import Pack

# Every agent's hook files come from the agent registry: a name no payload carries counts
# anywhere, a directory the agents' own payloads carry only as a command spells a path.
_BARE_DIRS, _CARRIED_DIRS = keyword_dirs()
_SELF_KEYWORDS = (
    "dcg", "-mdcg", "hooks", "settings", "config.toml", "allowlist", "history.jsonl",
    "pending_confirmations", "allow_once", "audit-cursor", "approval_attempts", *_BARE_DIRS,
    "mv", "chmod", "chown", "chattr", "chgrp", "setfacl", "truncate", "shred", "unlink",
    "rmdir", "tee", "ln", "rsync", "packed-refs",
    # The hook's runtime (.pth, sitecustomize, uninstalling its Python) and the archivers
    # that write whatever their archive holds into the directory they run in.
    ".pth", "sitecustomize", "usercustomize", "uninstall", "pyenv", "tar", "unzip",
    "bsdtar", "7z", "cpio", "bsdunzip", "jar", "unar", "ark", "pax", "p7zip",
    # An agent started with its settings moved or replaced or its hooks off
    # (dcg.shell.agentenv); "hooks" is already above.
    *(k for k in START_KEYWORDS if k != "hooks"),
    *(
        f"{before}{d}{after}"
        for d in _CARRIED_DIRS
        for before, after in (("~/", ""), ("home/", ""), ("home}/", ""), (" ", ""),
                              ("=", ""), ("", " "), ("", "/ "), ("", "*"), ("", "/*"),
                              ("", ","), ("", "}"), ("", "/,"), ("", "/}"))
    ),
)  # fmt: skip

# (pack id, keywords). The module is ``dcg.packs.<pack id>``.
REGISTRY: tuple[tuple[str, tuple[str, ...]], ...] = (
    # --- core (always on) ---
    ("core.git", ("git", "patch", "logs", "refs", "packed-refs")),
    # remove_tree: File::Path's tree deletion in perl code, which the embedded analysis
    # turns into rm -rf (Python's rmtree and Node's rmSync already contain "rm").
    (
        "core.filesystem",
        (
            "rm",
            "find",
            "rimraf",
            # Node deleters besides rimraf (dcg.safe_delete.NODE_DELETERS).
            "del-cli",
            "del ",
            "del@",
            "trash",
            "premove",
            # Many files emptied or replaced at once (dcg.keywords.MANY_WRITES).
            "\x00many-writes",
            "shred",
            "srm",
            "truncate",
            "--del",
            "--rem",
            "remove_tree",
            # Go's os.RemoveAll, Rust's remove_dir_all, Kotlin's deleteRecursively: in a
            # source the line writes and compiles (dcg.shell.runfiles), code that deletes.
            "removeall",
            "remove_dir_all",
            "deleterecursively",
            "format-volume",
            "clear-disk",
            "initialize-disk",
            "remove-partition",
            "clear-content",
            "clc",
        ),
    ),
    # Not a bare ".claude"/".codex"/".gemini": every such payload's transcript_path has
    # them (`/.claude/projects/…`); only the spellings a command uses count. The writers
    # (mv, chmod, …) reach a protected path through a glob or a `cd` with no keyword.
    ("core.dcg", _SELF_KEYWORDS),
    # Unresolvable expansions in a command word ("$CMD -rf", "`…` --hard"), and what can
    # run code dcg has to look into: pipes and redirections into a shell, process
    # substitution, scripts (sh FILE, ./FILE, source), globs and brace alternatives in a
    # command word, package scripts, make recipes, interpreters running computed code.
    # Not "bash": every payload names it.
    (
        "core.shell",
        (
            "$",
            "`",
            "<opaque>",
            "|",
            "<",
            "sh",
            "zsh",
            "ksh",
            "dash ",
            "source",
            "./",
            "?",
            "*",
            "[",
            "{,",
            ",}",
            "\x00brace",  # dcg.engine.BRACE: a brace expansion anywhere
            "npm",
            "pnpm",
            "yarn",
            "make",
            "system",
            "popen",
            "subprocess",
            "spawn",
            "exec(",
            "exec ",
            "execv",
            "execl",
            "eval",
            "shell",
            # Commands that run a script file or a shell escape dcg reads before it runs
            # (python3 FILE, . FILE, just RECIPE, vim -c '!…', sqlite3 '.shell', tclsh)
            # and arithmetic evaluation that can run a[$(…)] (let, declare -i). "bash"
            # only with what follows it on a command line: payloads name their tool "bash".
            "bash ",
            "bash\t",
            "bash\\t",
            # Shells fed at run time: coprocesses, output process substitutions.
            "coproc",
            ">(",
            ". ",
            "python",
            "node",
            "ruby",
            "perl",
            "php",
            "just",
            # Task runners whose files are read (dcg.shell.taskrunners).
            "task",
            "nox",
            "invoke",
            "inv ",
            "tox",
            "poe",
            # Python project runners: a .py file, a configured script (dcg.shell.pyscripts).
            "uv",
            "pdm",
            "hatch",
            "rye",
            "tclsh",
            "wish",
            "expect",
            "sqlite3",
            "vim",
            "nvim",
            "vi ",
            "ex ",
            "let",
            "declare",
            "typeset",
            "local ",
            "((",
            # sed's e command and s///e flag run shell text; crontab FILE installs commands.
            "sed ",
            "crontab",
            # Tools that run text or a file they are given (dcg.shell.detached,
            # dcg.shell.cmdfiles): typed into a pane, a debugger's or macro processor's
            # shell escape, an awk or Lua program's system().
            "tmux",
            "screen",
            "gdb",
            "awk",
            "gawk",
            "mawk",
            "nawk",
            "m4",
            "lua",
            "view",
            "gvim",
            "jimsh",
            # Tools that load code of the project without naming it (dcg.shell.implicit):
            # pytest's conftest.py and tests, pip's setup.py, npx's bins, pre-commit hooks.
            "pytest",
            "py.test",
            "pip",
            "npx",
            "pre-commit",
            # Build tools' own files, when a line names one (written, then run: the tool
            # alone, `cargo build`, stays off the parse path; dcg.shell.runfiles).
            "rakefile",
            "build.gradle",
            "settings.gradle",
            "build.rs",
            "pom.xml",
            "cmakelists",
            "gulpfile",
            "gruntfile",
            "jakefile",
            "sconstruct",
            "sconscript",
            "dodo.py",
            "fabfile",
            "wscript",
            "deno.json",
            "composer.json",
            "meson.build",
            "vagrantfile",
            "earthfile",
            "magefile",
            "mix.exs",
            "build.sbt",
            "build.xml",
            "thorfile",
            "snakefile",
            "lefthook",
            # Sources a line writes and then runs through their compiler (runfiles).
            "go generate",
            "go run",
            "java ",
            "tcc ",
        ),
    ),
    # --- optional packs ---
    ("secrets.vault", ("vault",)),
    ("secrets.aws_secrets", ("secretsmanager",)),
    ("secrets.onepassword", ("op",)),
    ("secrets.doppler", ("doppler",)),
    ("backup.restic", ("restic",)),
    ("backup.borg", ("borg",)),
    ("backup.rclone", ("rclone",)),
    ("backup.velero", ("velero",)),
    # HTTP-API packs: the clients of dcg.packs._http (curl, wget, HTTPie, xh).
    ("search.elasticsearch", ("curl", "wget", "http", "xh")),
    ("search.opensearch", ("curl", "wget", "http", "xh")),
    ("search.meilisearch", ("curl", "wget", "http", "xh")),
    ("search.algolia", ("algolia",)),
    ("messaging.kafka", ("kafka", "rpk")),
    ("messaging.rabbitmq", ("rabbitmq",)),
    ("messaging.nats", ("nats",)),
    ("messaging.sqs_sns", ("sqs", "sns")),
    ("platform.github", ("gh", "curl", "wget", "http", "xh")),
    ("platform.gitlab", ("glab", "curl", "wget", "http", "xh")),
    ("cicd.github_actions", ("gh",)),
    # Self-hosted GitLab has no fixed host name; its API paths start with /api/v4.
    ("cicd.gitlab_ci", ("gitlab-runner", "glab", "api")),
    ("cicd.jenkins", ("jenkins", "dodelete", "dowipeoutworkspace", "saferestart", "safeexit")),
    ("cicd.circleci", ("circleci",)),
    ("dns.route53", ("route53",)),
    ("dns.cloudflare", ("flarectl", "cloudflare")),
    ("dns.generic", ("nsupdate", "rndc", "knotc", "pdnsutil")),
    ("monitoring.datadog", ("dog", "datadoghq", "ddog-gov")),
    # Prometheus has no CLI of its own for these; its admin API paths are the keywords.
    ("monitoring.prometheus", ("delete_series", "clean_tombstones", "quit", "amtool", "thanos")),
    ("monitoring.pagerduty", ("pagerduty", "pd")),
    ("monitoring.newrelic", ("newrelic",)),
    ("monitoring.splunk", ("splunk", "8089")),
    # "ses" would match every payload's session_id; the rules need `aws ses…` anyway.
    ("email.ses", ("aws",)),
    ("email.sendgrid", ("sendgrid",)),
    ("email.mailgun", ("mailgun",)),
    ("email.postmark", ("postmark",)),
    ("payment.stripe", ("stripe",)),
    ("featureflags.launchdarkly", ("ldcli", "launchdarkly")),
    # Self-hosted Unleash and Flipt have no fixed host; their API paths are the keywords.
    ("featureflags.unleash", ("admin",)),
    ("featureflags.flipt", ("flipt", "flags", "namespaces", "segments")),
    ("featureflags.split", ("split.io",)),
    ("package_managers.npm", ("npm", "yarn", "pnpm")),
    ("package_managers.cargo", ("cargo",)),
    ("package_managers.pypi", ("twine", "uv", "poetry", "flit", "hatch", "pdm", "pypi-cleanup")),
    ("package_managers.gem", ("gem", "rake")),
    ("package_managers.nuget", ("nuget",)),
    ("strict.git", ("git",)),
    ("database.postgresql", ("psql", "dropdb", "dropuser", "pg_restore")),
    ("database.mysql", ("mysql", "mariadb", "mysqladmin", "mariadb-admin")),
    ("database.sqlite", ("sqlite",)),
    ("database.mongodb", ("mongo",)),
    ("database.redis", ("redis-cli",)),
    ("containers.docker", ("docker",)),
    ("containers.compose", ("compose",)),
    ("containers.podman", ("podman",)),
    ("kubernetes.kubectl", ("kubectl",)),
    ("kubernetes.helm", ("helm",)),
    ("kubernetes.kustomize", ("kubectl", "kustomize")),
    ("cloud.aws", ("aws",)),
    ("cloud.gcp", ("gcloud", "curl", "wget", "http", "xh")),
    ("cloud.azure", ("az", "curl", "wget", "http", "xh")),
    ("infrastructure.terraform", ("terraform", "tofu", "terragrunt")),
    ("infrastructure.pulumi", ("pulumi",)),
    ("infrastructure.ansible", ("ansible",)),
    ("storage.s3", ("s3",)),
    ("storage.gcs", ("gsutil", "gcloud")),
    ("storage.minio", ("mc",)),
    ("storage.azure_blob", ("az", "azcopy")),
    # Matches the payload commands the parser unwraps from ssh (their via holds "ssh").
    (
        "remote.ssh",
        ("rm", "mkfs", "wipefs", "dd", "shutdown", "reboot", "halt", "poweroff", "init"),
    ),
    ("remote.scp", ("scp",)),
    (
        "system.disk",
        (
            "dd",
            "mkfs",
            "mke2fs",
            "mkswap",
            "mkntfs",
            "mkdosfs",
            "wipefs",
            "blkdiscard",
            "sgdisk",
            "shred",
            "fdisk",
            "gdisk",
            "cfdisk",
            "sfdisk",
            "parted",
        ),
    ),
    ("system.permissions", ("chmod", "chown", "chgrp")),
    (
        "system.services",
        ("systemctl", "service", "shutdown", "reboot", "halt", "poweroff", "init", "telinit"),
    ),
    ("remote.rsync", ("rsync",)),
)

# Packs that are always enabled and cannot be disabled by configuration.
CORE: tuple[str, ...] = ("core.git", "core.filesystem", "core.dcg", "core.shell")

KEYWORDS: dict[str, tuple[str, ...]] = dict(REGISTRY)


def category(pack_id: str) -> str:
    return pack_id.partition(".")[0]


def all_ids() -> tuple[str, ...]:
    return tuple(pack_id for pack_id, _ in REGISTRY)


def expand(selectors: list[str] | tuple[str, ...]) -> tuple[list[str], list[str]]:
    """Resolve pack or category ids (or ``all``) to pack ids, in registry order.

    Returns ``(pack_ids, unknown_selectors)``.
    """
    wanted: set[str] = set()
    unknown: list[str] = []
    for raw in selectors:
        sel = raw.strip().lower()
        if not sel:
            continue
        if sel == "all":
            wanted.update(KEYWORDS)
            continue
        hits = [p for p in KEYWORDS if p == sel or p.startswith(sel + ".")]
        if hits:
            wanted.update(hits)
        else:
            unknown.append(raw.strip())
    return [p for p, _ in REGISTRY if p in wanted], unknown


_loaded: dict[str, Pack] = {}


def load(pack_id: str) -> Pack:
    """Import a pack module on first use and return its ``PACK``."""
    pack = _loaded.get(pack_id)
    if pack is None:
        if pack_id not in KEYWORDS:
            raise KeyError(pack_id)
        module = __import__(f"dcg.packs.{pack_id}", fromlist=["PACK"])
        pack = module.PACK
        _loaded[pack_id] = pack
    return pack
