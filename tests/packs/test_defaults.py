"""Default packs (decisions.md 10.6): infrastructure is guarded with no configuration file."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

from dcg import config, hook
from dcg.packs import CORE, all_ids, load
from dcg.packs._defaults import (
    OPT_IN_RULES,
    default_packs,
    default_reason,
    opt_in_reason,
)


def _hook(command: str, session: str = "defaults", **env: str) -> dict[str, object]:
    payload = {
        "session_id": session,
        "transcript_path": "/tmp/transcript.jsonl",
        "cwd": "/home/dev/project",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
    }
    out, err = io.StringIO(), io.StringIO()
    environ = dict(os.environ, DCG_HOOK_DETAILS="1", **env)
    assert hook.main([], io.BytesIO(json.dumps(payload).encode()), out, err, environ) == 0
    if not out.getvalue():
        return {}
    data = json.loads(out.getvalue())["hookSpecificOutput"]
    assert isinstance(data, dict)
    return data


# One or more flagship destructive commands per default family: (command, rule id).
FLAGSHIPS = [
    pytest.param("dd if=/dev/zero of=/dev/sda bs=1M", "system.disk:dd-device", id="disk-dd"),
    pytest.param("mkfs.ext4 /dev/sdb1", "system.disk:mkfs", id="disk-mkfs"),
    pytest.param("psql -c 'DROP DATABASE prod'", "database.postgresql:drop-database", id="psql"),
    pytest.param("dropdb prod", "database.postgresql:dropdb", id="dropdb"),
    pytest.param("mysql -e 'DROP DATABASE shop'", "database.mysql:drop-database", id="mysql"),
    pytest.param("mongosh --eval 'db.dropDatabase()'", "database.mongodb:drop-database", id="mdb"),
    pytest.param("redis-cli FLUSHALL", "database.redis:flushall", id="redis"),
    pytest.param("sqlite3 app.db 'DROP TABLE users'", "database.sqlite:drop", id="sqlite"),
    pytest.param("docker system prune --volumes -f", "containers.docker:volume-prune", id="docker"),
    pytest.param("docker volume rm pgdata", "containers.docker:volume-rm", id="docker-volume"),
    pytest.param("docker compose down -v", "containers.compose:down-volumes", id="compose"),
    pytest.param("podman system reset -f", "containers.podman:system-reset", id="podman"),
    pytest.param("kubectl delete namespace prod", "kubernetes.kubectl:delete-namespace", id="k8s"),
    pytest.param("helm uninstall web", "kubernetes.helm:uninstall", id="helm"),
    pytest.param(
        "kubectl delete -k overlays/prod", "kubernetes.kustomize:delete-kustomization", id="kust"
    ),
    pytest.param("aws s3 rm s3://bucket/data --recursive", "cloud.aws:s3-bulk-delete", id="aws-s3"),
    pytest.param(
        "aws rds delete-db-instance --db-instance-identifier prod --skip-final-snapshot",
        "cloud.aws:database-delete",
        id="aws-rds",
    ),
    pytest.param("gcloud projects delete acme-prod", "cloud.gcp:project-delete", id="gcp"),
    pytest.param("az group delete -n rg-prod --yes", "cloud.azure:group-delete", id="azure"),
    pytest.param("terraform destroy -auto-approve", "infrastructure.terraform:destroy", id="tf"),
    pytest.param("tofu destroy", "infrastructure.terraform:destroy", id="tofu"),
    pytest.param("pulumi destroy --yes", "infrastructure.pulumi:destroy", id="pulumi"),
    pytest.param(
        "ansible all -m shell -a 'rm -rf /var/lib'",
        "infrastructure.ansible:adhoc-destructive-shell",
        id="ansible",
    ),
    pytest.param("gsutil rm -r gs://bucket/logs", "storage.gcs:rm-recursive", id="gcs"),
    pytest.param("mc rb --force local/bucket", "storage.minio:rb", id="minio"),
    pytest.param(
        "az storage container delete -n data", "storage.azure_blob:container-delete", id="blob"
    ),
    pytest.param("s3cmd rb --recursive s3://bucket", "storage.s3:s3cmd-delete", id="s3cmd"),
    pytest.param("gh repo delete acme/app --yes", "platform.github:repo-delete", id="gh"),
    pytest.param("glab repo delete acme/app", "platform.gitlab:repo-delete", id="glab"),
    pytest.param("restic forget --keep-last 1 --prune", "backup.restic:forget-prune", id="restic"),
    pytest.param("borg delete /backup::all", "backup.borg:delete", id="borg"),
    pytest.param("rclone purge remote:backup", "backup.rclone:purge", id="rclone"),
    pytest.param(
        "velero backup delete --all --confirm", "backup.velero:backup-delete-all", id="velero"
    ),
    pytest.param("vault secrets disable kv", "secrets.vault:secrets-disable", id="vault"),
    pytest.param("op vault delete Private", "secrets.onepassword:vault-delete", id="1password"),
    pytest.param("doppler projects delete web", "secrets.doppler:project-delete", id="doppler"),
    pytest.param(
        "aws secretsmanager delete-secret --secret-id db --force-delete-without-recovery",
        "secrets.aws_secrets:delete-secret-now",
        id="aws-secrets",
    ),
]


@pytest.mark.parametrize(("command", "rule_id"), FLAGSHIPS)
def test_flagship_is_guarded_without_config(command: str, rule_id: str) -> None:
    assert not (config.load(None, {}).sources), "a config file exists in the test home"
    first = _hook(command, session=rule_id)
    assert first.get("ruleId") == rule_id
    severity = first["severity"]
    if severity == "critical":
        assert first["permissionDecision"] == "deny"
    else:
        # Nothing of a database, a cluster or an account can be kept, so the safety net
        # stops it at its first occurrence and says why (decisions.md 11.2).
        assert (first["responseLevel"], first["permissionDecision"]) == ("soft_block", "deny")
        assert "dcg could not keep a copy" in str(first["permissionDecisionReason"])


@pytest.mark.parametrize(("command", "rule_id"), FLAGSHIPS)
def test_flagship_follows_the_curve_without_the_safety_net(
    command: str, rule_id: str, tmp_path: Path
) -> None:
    conf_file = tmp_path / "dcg.toml"
    conf_file.write_text("[safety_net]\nenabled = false\n")
    conf = str(conf_file)
    first = _hook(command, session=rule_id, DCG_CONFIG=conf)
    if first["severity"] == "critical":
        assert first["permissionDecision"] == "deny"
        return
    # The standard curve: warnings, then a stop within the same session.
    assert first["responseLevel"] == "warning"
    _hook(command, session=rule_id, DCG_CONFIG=conf)
    third = _hook(command, session=rule_id, DCG_CONFIG=conf)
    assert (third["ruleId"], third["permissionDecision"]) == (rule_id, "deny")


@pytest.mark.parametrize(
    ("command", "rule_id", "selector"),
    [
        pytest.param("docker rm -f web", "containers.docker:rm-force", "containers", id="docker"),
        pytest.param("docker image prune -f", "containers.docker:prune", "containers", id="prune"),
        pytest.param("kubectl drain node1", "kubernetes.kubectl:drain", "kubernetes", id="drain"),
        pytest.param(
            "terraform apply -auto-approve",
            "infrastructure.terraform:apply-auto-approve",
            "infrastructure.terraform",
            id="tf-apply",
        ),
        pytest.param("vault operator seal", "secrets.vault:operator-seal", "secrets", id="seal"),
    ],
)
def test_opt_in_rules_fire_only_when_enabled_explicitly(
    command: str, rule_id: str, selector: str
) -> None:
    assert _hook(command) == {}
    assert _hook(command, DCG_PACKS=selector).get("ruleId") == rule_id


@pytest.mark.parametrize(
    ("command", "rule_id"),
    [
        pytest.param("git rebase -i HEAD~3", "strict.git:rebase", id="strict-git"),
        pytest.param("npm publish", "package_managers.npm:publish", id="publish"),
        pytest.param("rabbitmqctl reset", "messaging.rabbitmq:reset-node", id="messaging"),
    ],
)
def test_opinionated_packs_stay_opt_in(command: str, rule_id: str) -> None:
    assert _hook(command) == {}
    assert _hook(command, DCG_PACKS=rule_id.split(":")[0]).get("ruleId") == rule_id


def test_a_default_pack_can_be_disabled_in_the_user_config() -> None:
    from pathlib import Path

    path = Path.home() / ".config" / "dcg" / "config.toml"
    path.parent.mkdir(parents=True)
    path.write_text('[packs]\ndisabled = ["kubernetes.helm"]\n')
    assert _hook("helm uninstall web") == {}
    assert _hook("kubectl delete namespace prod").get("ruleId") == (
        "kubernetes.kubectl:delete-namespace"
    )


@pytest.mark.parametrize("pack_id", all_ids())
def test_every_pack_has_a_default_and_a_reason(pack_id: str) -> None:
    on, off = default_reason(pack_id), opt_in_reason(pack_id)
    if pack_id in CORE:
        assert on is None and off is None
    else:
        assert (on is None) != (off is None), "exactly one of default-on and opt-in"
        assert (on or off or "").strip()


@pytest.mark.parametrize("pack_id", sorted(OPT_IN_RULES))
def test_opt_in_rules_name_rules_of_default_packs(pack_id: str) -> None:
    assert pack_id in default_packs(all_ids())
    names = {r.name for r in load(pack_id).rules}
    assert set(OPT_IN_RULES[pack_id][0]) <= names
    # A pack never keeps only opt-in rules: then it should not be on by default.
    assert names - set(OPT_IN_RULES[pack_id][0])
