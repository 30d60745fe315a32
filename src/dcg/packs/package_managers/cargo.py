"""Cargo and crates.io: publishing, yanking and changing crate owners."""

from dcg.model import Pack, Rule

# `cargo [+toolchain] [global flags] `.
_CARGO = r"^cargo\s(?:\+[^\s]+\s)?(?:-[^\s]*\s(?:[^\s-][^\s]*\s)?)*"

PACK = Pack(
    "package_managers.cargo",
    description="crates.io: cargo publish, yank and owner removal",
    safe=(r"^cargo\s(?:.*\s)?(?:--dry-run|-n)(?:\s|$)",),
    rules=(
        Rule(
            "yank",
            severity="high",
            pattern=_CARGO + r"yank\b(?!.*\s--undo\b)",
            reason="cargo yank stops new projects from resolving a crate version",
            explanation="Projects without a lockfile entry for the version can no longer "
            "depend on it, which breaks fresh builds of downstream crates; yanks can be "
            "undone with --undo but are seen by everyone in the meantime.",
            alternative="Publish a fixed version; yank only versions that are broken or unsafe.",
            blocks=("cargo yank --version 1.0.1 mycrate", "cargo yank mycrate@0.3.0"),
            allows=("cargo yank --version 1.0.1 --undo mycrate", "cargo search mycrate"),
        ),
        Rule(
            "publish",
            severity="medium",
            pattern=_CARGO + r"publish\b",
            reason="cargo publish uploads a crate version to crates.io for good",
            explanation="A published version can never be deleted or overwritten, only "
            "yanked; any file in the package (including accidentally included secrets) stays "
            "downloadable forever.",
            alternative="cargo publish --dry-run and cargo package --list first.",
            blocks=("cargo publish", "cargo +stable publish -p mycrate --allow-dirty"),
            allows=("cargo publish --dry-run", "cargo package --list"),
        ),
        Rule(
            "owner-remove",
            severity="medium",
            pattern=_CARGO + r"owner\s(?:.*\s)?(?:--remove|-r)\b",
            reason="cargo owner --remove takes publish rights away from a user or team",
            explanation="The removed owner can no longer publish or yank; removing the wrong "
            "one can leave the crate without a maintainer.",
            alternative="cargo owner --list first.",
            blocks=("cargo owner --remove alice mycrate", "cargo owner -r github:acme:devs"),
            allows=("cargo owner --list mycrate", "cargo owner --add bob mycrate"),
        ),
    ),
)
