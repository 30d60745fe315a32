"""RubyGems: pushing and yanking gems, removing owners, rake release."""

from dcg.model import Pack, Rule

_GEM = r"^gem\s"

PACK = Pack(
    "package_managers.gem",
    description="RubyGems: gem yank, push, owner removal and rake release",
    rules=(
        Rule(
            "yank",
            severity="high",
            pattern=_GEM + r"yank\b",
            reason="gem yank removes a gem version from rubygems.org",
            explanation="Bundles that resolve to the version fail to install, and the same "
            "version number can never be pushed again.",
            alternative="Push a fixed version; yank only broken or unsafe releases.",
            blocks=("gem yank mygem -v 1.2.3", "gem yank mygem --version 0.9.0 --platform java"),
            allows=("gem info mygem --remote", "gem list mygem --remote --all"),
        ),
        Rule(
            "push",
            severity="medium",
            pattern=r"(?:" + _GEM + r"push\b|^(?:bundle\sexec\s)?rake\s(?:.*\s)?release\b)",
            reason="Pushing a gem publishes the version for good",
            explanation="The version is installable by everyone at once and cannot be "
            "replaced; files packed into the gem are public. `rake release` also tags and "
            "pushes to git.",
            alternative="gem build and inspect the .gem (gem spec, tar -tf) first.",
            blocks=("gem push mygem-1.2.3.gem", "bundle exec rake release"),
            allows=("gem build mygem.gemspec", "bundle exec rake build"),
        ),
        Rule(
            "owner-remove",
            severity="medium",
            pattern=_GEM + r"owner\s(?:.*\s)?(?:--remove|-r)\b",
            reason="gem owner --remove takes push rights away from a user",
            explanation="The removed owner can no longer release or yank the gem.",
            alternative="gem owner mygem (list) first.",
            blocks=(
                "gem owner mygem --remove alice@example.com",
                "gem owner mygem -r bob@example.com",
            ),
            allows=("gem owner mygem", "gem owner mygem --add carol@example.com"),
        ),
    ),
)
