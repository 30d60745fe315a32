"""CircleCI CLI: deleting contexts, context secrets, orbs, namespaces, pipelines and runners."""

from dcg.model import Pack, Rule

_CCI = r"^circleci\s(?:-[^\s]*\s(?:[^\s-][^\s]*\s)?)*"

PACK = Pack(
    "cicd.circleci",
    description="CircleCI: context, secret, orb, namespace, pipeline and runner deletion",
    rules=(
        Rule(
            "namespace-delete",
            severity="critical",
            pattern=_CCI + r"namespace\s(?:delete|rm)\b",
            reason="circleci namespace delete removes an orb namespace with all of its orbs",
            explanation="Every orb in the namespace and every published version go with it; "
            "configs that import them fail, and the namespace name may not be claimable again.",
            alternative="Keep the namespace and deprecate or unlist the orbs instead.",
            blocks=(
                "circleci namespace delete my-org",
                "circleci namespace delete my-org --no-prompt",
            ),
            allows=("circleci namespace list", "circleci orb list my-org"),
        ),
        Rule(
            "context-delete",
            severity="high",
            pattern=_CCI + r"context\s(?:delete|rm)\b",
            reason="circleci context delete removes a context with all of its secrets",
            explanation="The environment variables stored in the context are deleted and their "
            "values cannot be read back; every job that uses the context fails.",
            alternative="List the context's variables and have their values available to "
            "recreate it before deleting.",
            blocks=(
                "circleci context delete org/my-org context/prod",
                "circleci context delete github my-org prod -f",
            ),
            allows=("circleci context list org/my-org", "circleci context show github my-org prod"),
        ),
        Rule(
            "context-secret",
            severity="medium",
            pattern=_CCI + r"context\s(?:remove-secret|delete-secret|remove-env-var)\b",
            reason="Removing a secret from a CircleCI context",
            explanation="The value cannot be read back from CircleCI; jobs using the variable "
            "fail until it is stored again.",
            alternative="Store the new value (context store-secret) before removing the old one.",
            blocks=(
                "circleci context remove-secret org/my-org context/prod AWS_ACCESS_KEY_ID",
                "circleci context remove-secret github my-org prod DATABASE_URL",
            ),
            allows=(
                "circleci context list org/my-org",
                "circleci context store-secret github my-org prod KEY",
            ),
        ),
        Rule(
            "orb-delete",
            severity="high",
            pattern=_CCI + r"orb\s(?:delete|rm|unlist)\b",
            reason="Deleting or unlisting a CircleCI orb breaks configs that import it",
            explanation="Pipelines importing the orb fail to compile their configuration; "
            "published orb versions cannot be republished under the same version.",
            alternative="Publish a new version that deprecates the old one.",
            blocks=("circleci orb delete my-org/my-orb", "circleci orb unlist my-org/legacy true"),
            allows=("circleci orb info my-org/my-orb", "circleci orb list org/my-org"),
        ),
        Rule(
            "pipeline-delete",
            severity="medium",
            pattern=_CCI + r"(?:pipeline|project)\s(?:delete|rm)\b",
            reason="Deleting a CircleCI pipeline or project definition",
            explanation="The pipeline's history, or the project's configuration, is removed "
            "and must be set up again.",
            alternative="Stop following or pause the project instead.",
            blocks=("circleci pipeline delete 123456", "circleci pipeline delete 789012"),
            allows=("circleci pipeline list org/my-org/project/app", "circleci project list"),
        ),
        Rule(
            "runner-delete",
            severity="medium",
            pattern=_CCI + r"runner\s(?:resource-class|token|instance)\s(?:delete|rm)\b",
            reason="Deleting a CircleCI runner resource class or token",
            explanation="Self-hosted runners using it stop picking up jobs, and jobs that "
            "request the resource class wait or fail.",
            alternative="Create the replacement token and deploy it first.",
            blocks=(
                "circleci runner resource-class delete my-org/gpu",
                "circleci runner token delete 0a1b2c",
            ),
            allows=(
                "circleci runner resource-class list my-org",
                "circleci runner token list my-org/gpu",
            ),
        ),
    ),
)
