"""GitHub via gh: deleting repositories, releases, gists, issues, keys and raw API deletes."""

from dcg.model import Pack, Rule
from dcg.packs._http import HOST_REST, sends

_GH = r"^gh\s"

PACK = Pack(
    "platform.github",
    description=(
        "GitHub (gh): repository, release, gist, issue, key and secret deletion, API DELETE"
    ),
    rules=(
        Rule(
            "repo-delete",
            severity="critical",
            pattern=_GH + r"repo\sdelete\b",
            reason="gh repo delete deletes a repository with its issues, PRs, wiki and releases",
            explanation="The repository and everything GitHub stores with it (issues, pull "
            "requests, discussions, releases, Actions history, secrets) are deleted; forks "
            "are detached. Organisation owners may restore it within 90 days, otherwise "
            "nothing can be recovered.",
            alternative="gh repo archive makes it read-only; clone it with --mirror first.",
            blocks=("gh repo delete owner/repo", "gh repo delete owner/repo --yes"),
            allows=("gh repo view owner/repo", "gh repo clone owner/repo -- --mirror"),
        ),
        Rule(
            "api-delete",
            severity="high",
            pattern=_GH + r"api\s(?:.*\s)?(?:-X\s?|--method[=\s])(?i:delete)(?:\s|$)",
            reason="gh api with DELETE removes whatever the endpoint names",
            explanation="A raw API DELETE bypasses the confirmations of the gh subcommands; "
            "it can delete repositories, branches, environments, hooks, team memberships "
            "or packages.",
            alternative="GET the endpoint first, and use the gh subcommand that asks for "
            "confirmation when there is one.",
            blocks=(
                "gh api -X DELETE /repos/owner/repo",
                "gh api --method DELETE repos/o/r/git/refs/heads/main",
            ),
            allows=("gh api /repos/owner/repo", "gh api -X GET repos/o/r/branches"),
        ),
        Rule(
            "rest-delete",
            severity="high",
            pattern=sends("DELETE") + r"(?:api\.github\.com|github\." + HOST_REST + r"/api/v3)"
            r"/(?:repos|orgs|user|gists|teams|enterprises|applications|projects)/",
            reason="an HTTP DELETE to the GitHub REST API removes whatever the URL names",
            explanation="curl -X DELETE on api.github.com is gh api -X DELETE without gh: it "
            "deletes repositories, branches' refs, releases, hooks, environments, packages "
            "or memberships with no confirmation.",
            alternative="GET the URL first; use the gh subcommand that asks for confirmation.",
            blocks=(
                "curl -X DELETE -H 'Authorization: token x' https://api.github.com/repos/o/r",
                "curl -XDELETE https://api.github.com/repos/o/r/git/refs/heads/main",
                "curl --request DELETE https://api.github.com/repos/o/r/releases/1",
                "curl --request=delete https://github.example.com/api/v3/repos/o/r",
                "http DELETE https://api.github.com/repos/o/r",
                "wget --method=DELETE https://api.github.com/user/keys/1",
            ),
            allows=(
                "curl https://api.github.com/repos/o/r",
                "curl -X GET https://api.github.com/repos/o/r",
                "curl -X DELETE https://example.com/repos/o/r",
            ),
        ),
        Rule(
            "release-delete",
            severity="high",
            pattern=_GH + r"release\sdelete\b",
            reason="gh release delete removes a release and its uploaded assets",
            explanation="Binaries attached to the release are deleted; downloads and install "
            "scripts pointing at them break. With --cleanup-tag the git tag goes as well.",
            alternative="Edit the release to a draft or pre-release instead, and download the "
            "assets first (gh release download).",
            blocks=("gh release delete v1.0.0", "gh release delete v2.3.1 --cleanup-tag -y"),
            allows=("gh release view v1.0.0", "gh release download v1.0.0"),
        ),
        Rule(
            "issue-delete",
            severity="high",
            pattern=_GH + r"(?:issue|gist|project|codespace)\sdelete\b",
            reason="Deleting an issue, gist, project or codespace is permanent",
            explanation="Deleted issues and their comments cannot be restored; a gist goes with "
            "its revisions; a project board with its items; a codespace with any work that was "
            "not pushed.",
            alternative="Close the issue (gh issue close), make the gist secret, close the "
            "project, or push the codespace's changes first.",
            blocks=(
                "gh issue delete 123",
                "gh gist delete 12345",
                "gh codespace delete -c fluffy-space",
            ),
            allows=("gh issue close 123", "gh gist view 12345"),
        ),
        Rule(
            "secret-delete",
            severity="high",
            pattern=_GH + r"secret\s(?:delete|remove)\b",
            reason="gh secret delete removes a secret whose value cannot be read back",
            explanation="Workflows, Dependabot or Codespaces that use the secret fail; GitHub "
            "never reveals a stored value, so it must come from its original source.",
            alternative="Overwrite it with gh secret set instead.",
            blocks=("gh secret delete NPM_TOKEN", "gh secret delete DEPLOY_KEY --env production"),
            allows=("gh secret list", "gh secret set NPM_TOKEN --body x"),
        ),
        Rule(
            "repo-archive",
            severity="medium",
            pattern=_GH + r"repo\s(?:archive|rename|transfer)\b",
            reason="Archiving, renaming or transferring a repository",
            explanation="An archived repository becomes read-only for everyone (pushes, "
            "issues, PRs, Actions stop); a rename or transfer changes its URL and "
            "integrations that do not follow redirects break.",
            alternative="Announce it first; archiving can be undone with gh repo unarchive.",
            blocks=("gh repo archive owner/repo", "gh repo rename new-name -R owner/repo"),
            allows=("gh repo unarchive owner/repo", "gh repo view owner/repo"),
        ),
        Rule(
            "key-delete",
            severity="medium",
            pattern=_GH + r"(?:ssh-key|gpg-key|repo\sdeploy-key|label|ruleset)\s(?:delete|rm)\b",
            reason="Deleting SSH, GPG or deploy keys, labels or rulesets",
            explanation="Machines using the key lose access; a deleted ruleset stops "
            "protecting branches; a deleted label is removed from every issue.",
            alternative="List them first (gh ssh-key list, gh ruleset view) and keep the output.",
            blocks=("gh ssh-key delete 1", "gh repo deploy-key delete 987 -R owner/repo"),
            allows=("gh ssh-key list", "gh repo deploy-key list"),
        ),
    ),
)
