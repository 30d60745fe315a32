"""npm, Yarn and pnpm: unpublishing, deprecating, publishing and changing package access."""

from dcg.model import Pack, Rule

# `npm [global flags] ` (--registry URL, --otp N, -w WORKSPACE, …).
_NPM = r"^npm\s(?:-[^\s]*\s(?:[^\s-][^\s]*\s)?)*"

PACK = Pack(
    "package_managers.npm",
    description="npm registry: unpublish, deprecate, publish, dist-tag, owner and access changes",
    # --dry-run reports what would be published or changed and does nothing.
    safe=(r"^(?:npm|yarn|pnpm)\s(?:.*\s)?--dry-run(?:[=\s]|$)(?!=?false)",),
    rules=(
        Rule(
            "unpublish",
            severity="high",
            pattern=_NPM + r"unpublish\b",
            reason="npm unpublish removes package versions from the registry",
            explanation="Builds and installs that depend on the version break, and the same "
            "name@version can never be published again; with --force and no version the "
            "whole package goes, and the name is blocked for 24 hours.",
            alternative="npm deprecate the version with a message, or publish a fixed version.",
            blocks=("npm unpublish my-pkg@1.0.3", "npm unpublish @acme/ui --force"),
            allows=("npm view my-pkg versions", "npm unpublish my-pkg@1.0.3 --dry-run"),
        ),
        Rule(
            "access-public",
            severity="high",
            pattern=_NPM + r"access\s(?:set\sstatus[=\s]public|public)\b",
            reason="Making a private npm package public",
            explanation="Everyone can install and read the package's published code from then "
            "on, including past versions; what has been downloaded cannot be taken back.",
            alternative="Check the package contents (npm pack --dry-run) and licences first.",
            blocks=("npm access set status=public @acme/internal", "npm access public @acme/tools"),
            allows=("npm access get status @acme/internal", "npm access list packages @acme"),
        ),
        Rule(
            "publish",
            severity="medium",
            pattern=r"(?:" + _NPM + r"publish\b|^(?:yarn|pnpm)\s(?:.*\s)?publish\b)",
            reason="Publishing a package version to the registry",
            explanation="A published version is public (or visible to the scope) at once, "
            "cannot be republished with other content, and can only be unpublished within "
            "72 hours; secrets or build files swept into it are exposed.",
            alternative="npm publish --dry-run (or npm pack) and review the file list first.",
            blocks=(
                "npm publish",
                "pnpm publish --access public --no-git-checks",
                "yarn npm publish",
            ),
            allows=("npm publish --dry-run", "npm pack"),
        ),
        Rule(
            "deprecate",
            severity="medium",
            pattern=_NPM + r"(?:deprecate|undeprecate)\b",
            reason="npm deprecate shows a warning to everyone installing the versions",
            explanation="Every install of the matched versions prints the message; a broad "
            "range such as '*' or '<2' deprecates versions users still rely on.",
            alternative="Deprecate an exact version range and check it with npm view first.",
            blocks=(
                'npm deprecate my-pkg@"< 2.0.0" "use 2.x"',
                "npm deprecate @acme/ui@1.2.3 broken",
            ),
            allows=("npm view my-pkg deprecated", "npm view my-pkg versions --json"),
        ),
        Rule(
            "tags-owners",
            severity="medium",
            pattern=_NPM + r"(?:dist-tags?\s(?:rm|remove|add|set)|owner\s(?:rm|remove))\b",
            reason="Moving or removing dist-tags, or removing a package owner",
            explanation="Moving `latest` changes what every `npm install` gets; removing an "
            "owner takes away their publish rights (and the last owner's removal leaves the "
            "package unmaintainable).",
            alternative="npm dist-tag ls and npm owner ls first.",
            blocks=("npm dist-tag add my-pkg@1.0.0 latest", "npm owner rm alice my-pkg"),
            allows=("npm dist-tag ls my-pkg", "npm owner ls my-pkg"),
        ),
    ),
)
