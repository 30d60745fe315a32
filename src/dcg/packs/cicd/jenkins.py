"""Jenkins: deleting jobs, builds, nodes, views and credentials via jenkins-cli or the web API."""

from dcg.model import Pack, Rule
from dcg.packs._http import ANY

# `java … -jar …jenkins-cli….jar [options] <command>`; the command may follow -s/-auth options.
_CLI = r"^java\s(?=(?:.*\s)?-jar\s[^\s]*jenkins-cli[^\s]*\s)(?:.*\s)?"

PACK = Pack(
    "cicd.jenkins",
    description="Jenkins: job, build, node, view and credential deletion, restarts",
    rules=(
        Rule(
            "delete-credentials",
            severity="high",
            pattern=r"(?:"
            + _CLI
            + r"delete-credentials\b|"
            + ANY
            + r"/credentials?/[^\s]*/doDelete\b)",
            reason="Deleting a Jenkins credential breaks every job that uses it",
            explanation="The stored secret (token, SSH key, password) is removed from Jenkins; "
            "jobs referencing its id fail, and the secret itself is not recoverable from "
            "Jenkins.",
            alternative="Find its users first (credential usage tracking) and add the "
            "replacement credential before deleting.",
            blocks=(
                "curl -X POST "
                "http://jenkins.local/credentials/store/system/domain/_/credential/old-token/doDelete",
                "java -jar jenkins-cli.jar -s http://j/ delete-credentials "
                "system::system::jenkins _ old-token",
            ),
            allows=(
                "curl -X GET http://jenkins.local/credentials/store/system/domain/_/api/json",
                "java -jar jenkins-cli.jar -s http://j/ list-credentials system::system::jenkins",
            ),
        ),
        Rule(
            "delete-job",
            severity="high",
            pattern=r"(?:" + _CLI + r"delete-job\b|" + ANY + r"/job/[^\s]*/doDelete\b)",
            reason="Deleting a Jenkins job removes its configuration and whole build history",
            explanation="The job's config.xml, every build, its logs and archived artifacts "
            "are deleted from the controller; for a folder, every job inside goes too.",
            alternative="Disable the job (disable-job) or back up $JENKINS_HOME/jobs/<name> "
            "first; get-job <name> > job.xml keeps its configuration.",
            blocks=(
                "java -jar jenkins-cli.jar -s http://jenkins.local/ delete-job deploy-prod",
                "curl -X POST -u admin:token http://jenkins.local/job/deploy-prod/doDelete",
            ),
            allows=(
                "java -jar jenkins-cli.jar -s http://jenkins.local/ get-job deploy-prod",
                "java -jar jenkins-cli.jar -s http://jenkins.local/ disable-job deploy-prod",
            ),
        ),
        Rule(
            "delete-builds",
            severity="medium",
            pattern=r"(?:"
            + _CLI
            + r"delete-builds\b|"
            + ANY
            + r"/job/[^\s]*/(?:\d+|last\w*)/doDelete\b)",
            reason="Deleting Jenkins builds removes their logs and archived artifacts",
            explanation="The builds' console output, test reports and archived artifacts are "
            "gone, which may be the only copy of a released binary.",
            alternative="Let the job's build discarder expire old builds.",
            blocks=(
                "java -jar jenkins-cli.jar -s http://j/ delete-builds deploy-prod 1-40",
                "curl -X POST http://jenkins.local/job/app/job/main/57/doDelete",
            ),
            allows=(
                "java -jar jenkins-cli.jar -s http://j/ console deploy-prod 40",
                "curl http://jenkins.local/job/app/57/api/json",
            ),
        ),
        Rule(
            "delete-node",
            severity="medium",
            pattern=r"(?:" + _CLI + r"delete-node\b|" + ANY + r"/computer/[^\s]*/doDelete\b)",
            reason="Deleting a Jenkins agent node aborts its builds and removes its config",
            explanation="Builds running on the agent are aborted and its launch configuration "
            "(host, credentials, labels) must be re-entered to bring it back.",
            alternative="Take it offline (offline-node) or get-node > node.xml first.",
            blocks=(
                "java -jar jenkins-cli.jar -s http://jenkins.local/ delete-node agent-1",
                "curl -X POST http://jenkins.local/computer/agent-1/doDelete",
            ),
            allows=(
                "java -jar jenkins-cli.jar -s http://jenkins.local/ get-node agent-1",
                "java -jar jenkins-cli.jar -s http://jenkins.local/ offline-node agent-1",
            ),
        ),
        Rule(
            "delete-view",
            severity="low",
            pattern=r"(?:" + _CLI + r"delete-view\b|" + ANY + r"/view/[^\s]*/doDelete\b)",
            reason="Deleting a Jenkins view removes its layout and filters",
            explanation="The jobs stay; only the view's job list, columns and filters go.",
            alternative="get-view <name> > view.xml first.",
            blocks=(
                "java -jar jenkins-cli.jar -s http://jenkins.local/ delete-view prod-view",
                "curl -X POST http://jenkins.local/view/prod-view/doDelete",
            ),
            allows=(
                "java -jar jenkins-cli.jar -s http://jenkins.local/ list-views",
                "java -jar jenkins-cli.jar -s http://jenkins.local/ get-view prod-view",
            ),
        ),
        Rule(
            "restart",
            severity="medium",
            pattern=r"(?:"
            + _CLI
            + r"(?:safe-)?(?:restart|shutdown)\b|"
            + ANY
            + r"/(?:safeRestart|restart|exit|safeExit)(?:[?\s]|$))",
            reason="Restarting or shutting down the Jenkins controller",
            explanation="A plain restart or exit aborts running builds; every user and pipeline "
            "loses the controller until it comes back.",
            alternative="Use quiet-down and safe-restart in a maintenance window.",
            blocks=(
                "java -jar jenkins-cli.jar -s http://jenkins.local/ restart",
                "curl -X POST http://jenkins.local/safeRestart",
            ),
            allows=(
                "java -jar jenkins-cli.jar -s http://jenkins.local/ quiet-down",
                "curl -X GET http://jenkins.local/api/json",
            ),
        ),
        Rule(
            "delete-other",
            severity="medium",
            pattern=ANY + r"/do(?:Delete|WipeOutWorkspace)\b",
            reason="Jenkins web API call that deletes an object or wipes a workspace",
            explanation="doDelete removes whatever object its URL names; doWipeOutWorkspace "
            "deletes a job's workspace on the agent.",
            alternative="Look at the object's api/json first and back up its config.xml.",
            blocks=(
                "curl -X POST http://jenkins.local/user/bob/doDelete",
                "curl -X POST http://jenkins.local/job/app/doWipeOutWorkspace",
            ),
            allows=(
                "curl http://jenkins.local/user/bob/api/json",
                "curl http://jenkins.local/job/app/ws/",
            ),
        ),
    ),
)
