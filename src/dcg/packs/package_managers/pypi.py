"""PyPI: uploading distributions and deleting releases (twine, uv, poetry, flit, hatch, pdm)."""

from dcg.model import Pack, Rule

PACK = Pack(
    "package_managers.pypi",
    description="PyPI: twine/uv/poetry/flit/hatch/pdm publish, pypi-cleanup deletions",
    safe=(r"^(?:poetry|uv|pdm|hatch)\s(?:.*\s)?--dry-run(?:\s|$)",),
    rules=(
        Rule(
            "delete-releases",
            severity="high",
            pattern=r"^pypi-cleanup\s(?:.*\s)?--do-it\b",
            reason="pypi-cleanup --do-it deletes releases from PyPI",
            explanation="Deleted files and releases vanish from the index and the same "
            "filename can never be uploaded again; installs pinned to them break.",
            alternative="Run pypi-cleanup without --do-it to see what it would delete; yank "
            "releases on pypi.org instead.",
            blocks=(
                "pypi-cleanup -p mypkg -r '.*dev.*' --do-it",
                "pypi-cleanup --package mypkg --do-it -y",
            ),
            allows=("pypi-cleanup -p mypkg -r '.*dev.*'", "pip index versions mypkg"),
        ),
        Rule(
            "publish",
            severity="medium",
            pattern=r"^(?:twine\s(?:.*\s)?upload|(?:uv|poetry|flit|hatch|pdm)\s(?:.*\s)?publish)\b",
            reason="Uploading a release to PyPI is permanent",
            explanation="A file uploaded to PyPI can never be replaced: its name is taken "
            "even after deletion, and whatever it contained (including secrets swept into "
            "the sdist) is downloadable at once.",
            alternative="Upload to TestPyPI first (--repository testpypi) and check the "
            "archive (twine check dist/*, tar tzf).",
            blocks=("twine upload dist/*", "uv publish", "poetry publish --build"),
            allows=("twine check dist/*", "poetry publish --dry-run"),
        ),
    ),
)
