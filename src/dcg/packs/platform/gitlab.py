"""GitLab via glab: deleting projects, releases, issues, merge requests and raw API deletes."""

from dcg.model import Pack, Rule
from dcg.packs._http import sends

_GLAB = r"^glab\s(?:-[^\s]*\s(?:[^\s-][^\s]*\s)?)*"

PACK = Pack(
    "platform.gitlab",
    description="GitLab (glab): project, release, issue, MR, variable and key deletion, API DELETE",
    rules=(
        Rule(
            "repo-delete",
            severity="critical",
            pattern=_GLAB + r"(?:repo|project)\s(?:delete|rm)\b",
            reason="glab repo delete deletes a project with its issues, MRs, wiki and packages",
            explanation="The project, its repository, issues, merge requests, CI history, "
            "registry images and packages are deleted. Depending on the instance's settings "
            "it may be restorable for a few days; otherwise nothing can be recovered.",
            alternative="Archive the project in its settings, and clone it with --mirror first.",
            blocks=("glab repo delete group/project", "glab repo delete group/project --yes"),
            allows=("glab repo view group/project", "glab repo clone group/project"),
        ),
        Rule(
            "rest-delete",
            severity="high",
            pattern=sends("DELETE") + r"/api/v4/"
            r"(?:projects|groups|users|user|snippets|runners)/",
            reason="an HTTP DELETE to the GitLab REST API removes whatever the URL names",
            explanation="curl -X DELETE on /api/v4/ is glab api -X DELETE without glab: it "
            "deletes projects, groups, branches, tags, releases or variables with no "
            "confirmation.",
            alternative="GET the URL first; use the glab subcommand that asks for confirmation.",
            blocks=(
                "curl -X DELETE -H 'PRIVATE-TOKEN: x' https://gitlab.com/api/v4/projects/42",
                "curl -XDELETE https://gitlab.example.com/api/v4/groups/7",
                "curl --request DELETE https://gitlab.com/api/v4/projects/1/repository/branches/x",
            ),
            allows=(
                "curl https://gitlab.com/api/v4/projects/42",
                "curl -X GET https://gitlab.com/api/v4/projects/42",
                "curl -X PUT https://gitlab.com/api/v4/projects/42",
            ),
        ),
        Rule(
            "api-delete",
            severity="high",
            pattern=_GLAB + r"api\s(?:.*\s)?(?:-X\s?|--method[=\s])(?i:delete)(?:\s|$)",
            reason="glab api with DELETE removes whatever the endpoint names",
            explanation="A raw API DELETE skips glab's confirmations and can delete projects, "
            "branches, tags, members, registry images or pipelines.",
            alternative="GET the endpoint first; prefer glab subcommands that confirm.",
            blocks=(
                "glab api -X DELETE projects/42",
                "glab api --method DELETE projects/42/repository/branches/main",
            ),
            allows=("glab api projects/42", "glab api -X GET projects/42/members"),
        ),
        Rule(
            "release-delete",
            severity="high",
            pattern=_GLAB + r"release\sdelete\b",
            reason="glab release delete removes a release and its links",
            explanation="The release notes and asset links are removed; with --with-tag the "
            "git tag is deleted too, which breaks builds pinned to it.",
            alternative="Edit the release instead; keep the tag.",
            blocks=("glab release delete v1.0.0", "glab release delete v1.0.0 --with-tag -y"),
            allows=("glab release view v1.0.0", "glab release list"),
        ),
        Rule(
            "issue-delete",
            severity="high",
            pattern=_GLAB + r"(?:issue|incident|snippet)\s(?:delete|del)\b",
            reason="glab issue delete permanently removes an issue and its discussion",
            explanation="Deleted issues cannot be restored; links from commits and merge "
            "requests point nowhere.",
            alternative="Close the issue (glab issue close) instead.",
            blocks=("glab issue delete 123", "glab issue delete 7 -R group/project"),
            allows=("glab issue close 123", "glab issue view 123"),
        ),
        Rule(
            "variable-delete",
            severity="high",
            pattern=_GLAB + r"variable\s(?:delete|remove)\b",
            reason="glab variable delete removes a CI/CD variable and its value",
            explanation="Pipelines that read the variable fail or run with an empty value; "
            "a masked value cannot be read back to recreate it.",
            alternative="glab variable get NAME first, or update it with glab variable update.",
            blocks=(
                "glab variable delete AWS_SECRET_ACCESS_KEY",
                "glab variable delete TOKEN -g group",
            ),
            allows=("glab variable list", "glab variable get AWS_REGION"),
        ),
        Rule(
            "mr-delete",
            severity="medium",
            pattern=_GLAB
            + r"(?:mr\sdelete|(?:ssh-key|deploy-key|label|schedule)\s(?:delete|rm))\b",
            reason="Deleting a merge request, key, label or pipeline schedule",
            explanation="A deleted merge request loses its discussion and approvals; keys "
            "cut off machines that use them; schedules stop running.",
            alternative="Close the merge request instead; list keys and schedules first.",
            blocks=("glab mr delete 42", "glab ssh-key delete 12"),
            allows=("glab mr close 42", "glab ssh-key list"),
        ),
    ),
)
