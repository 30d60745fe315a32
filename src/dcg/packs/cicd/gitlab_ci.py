"""GitLab CI: unregistering runners and deleting pipelines, jobs, environments and variables."""

from dcg.model import Pack, Rule
from dcg.packs._http import ANY, END, SEG, sends

_API = sends("DELETE") + r"/api/v4/projects/" + SEG + "/"
_GLAB = r"^glab\s(?:-[^\s]*\s(?:[^\s-][^\s]*\s)?)*"

PACK = Pack(
    "cicd.gitlab_ci",
    description="GitLab CI: runner unregistration, pipeline/job/environment/variable deletion",
    rules=(
        Rule(
            "unregister-all-runners",
            severity="high",
            pattern=r"^gitlab-runner\s(?:.*\s)?unregister\s(?:.*\s)?--all-runners\b",
            reason="gitlab-runner unregister --all-runners removes every runner on this host",
            explanation="All runners in config.toml are unregistered from GitLab and removed "
            "locally; pipelines that need their tags stay pending until new runners are "
            "registered with fresh tokens.",
            alternative="Unregister runners one by one with --name, or pause them in GitLab.",
            blocks=(
                "gitlab-runner unregister --all-runners",
                "sudo gitlab-runner unregister --all-runners",
            ),
            allows=("gitlab-runner list", "gitlab-runner verify"),
        ),
        Rule(
            "unregister-runner",
            severity="medium",
            pattern=r"^gitlab-runner\s(?:.*\s)?unregister\b",
            reason="gitlab-runner unregister removes a runner from GitLab",
            explanation="The runner's token is invalidated and its config entry removed; "
            "jobs that target it wait until a runner is registered again.",
            alternative="Pause the runner in GitLab (Settings > CI/CD > Runners) instead.",
            blocks=(
                "gitlab-runner unregister --name runner-prod",
                "gitlab-runner unregister --url https://gitlab.example.com --token ABCD",
            ),
            allows=("gitlab-runner status", "gitlab-runner register --help"),
        ),
        Rule(
            "api-delete",
            severity="high",
            pattern=_API + r"(?:pipelines|jobs|environments|variables|pipeline_schedules|triggers"
            r"|deploy_keys|runners|artifacts)\b",
            reason="GitLab API DELETE of pipelines, jobs, environments or CI variables",
            explanation="Deleting a pipeline removes its jobs, logs and artifacts; deleting an "
            "environment or CI variable breaks deployments that use it; these cannot be "
            "restored through the API.",
            alternative="GET the object first and keep it; stop an environment instead of "
            "deleting it, and let artifact expiry clean up.",
            blocks=(
                "curl -X DELETE 'https://gitlab.example.com/api/v4/projects/42/pipelines/1001'",
                "curl --request DELETE -H 'PRIVATE-TOKEN: x' "
                "https://gitlab.example.com/api/v4/projects/42/variables/AWS_KEY",
            ),
            allows=(
                "curl -X GET 'https://gitlab.example.com/api/v4/projects/42/pipelines/1001'",
                "curl -X POST 'https://gitlab.example.com/api/v4/projects/42/pipelines/1001/retry'",
            ),
        ),
        Rule(
            "erase-job",
            severity="medium",
            pattern=ANY + r"/api/v4/projects/" + SEG + r"/jobs/" + SEG + r"/erase" + END,
            reason="Erasing a GitLab job deletes its log and artifacts",
            explanation="POST /jobs/:id/erase wipes the job's trace and artifacts; the job "
            "record stays but its output is gone.",
            alternative="Download the artifacts and log first.",
            blocks=(
                "curl -X POST https://gitlab.example.com/api/v4/projects/42/jobs/5001/erase",
                "curl --request POST --header 'PRIVATE-TOKEN: t' "
                "https://gitlab.example.com/api/v4/projects/42/jobs/7/erase",
            ),
            allows=(
                "curl https://gitlab.example.com/api/v4/projects/42/jobs/5001/trace",
                "curl -X POST https://gitlab.example.com/api/v4/projects/42/jobs/5001/retry",
            ),
        ),
        Rule(
            "glab-delete",
            severity="medium",
            pattern=_GLAB + r"(?:ci\sdelete|variable\s(?:delete|remove)|schedule\sdelete)\b",
            reason="glab deletes pipelines, CI/CD variables or pipeline schedules",
            explanation="Deleted pipelines lose their jobs, logs and artifacts; a deleted "
            "variable's value is gone and jobs that read it fail.",
            alternative="glab ci view / glab variable get first; keep the values elsewhere.",
            blocks=("glab ci delete 1001", "glab variable delete AWS_SECRET_ACCESS_KEY"),
            allows=("glab ci list", "glab variable list"),
        ),
    ),
)
