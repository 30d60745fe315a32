"""More pack spellings: HTTP DELETEs to Google Cloud and Azure APIs, mongosh code with
JavaScript spacing, comments and bracket access, through every agent's hook payload.

These cases reach remote services, so none is run: each is proven by reading what the
client would send (method and URL, or the code mongosh evaluates), which ``expansion``
names.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import hookpath
from dcg.shell import parse
from dcg.shell.clients import tight_js

GCP, AZ, MONGO = "cloud.gcp:rest-delete", "cloud.azure:rest-delete", "database.mongodb"

STOP = [
    pytest.param("curl -X DELETE https://storage.googleapis.com/storage/v1/b/logs", GCP,
                 id="gcs-bucket"),
    pytest.param("curl -XDELETE https://www.googleapis.com/storage/v1/b/b/o/obj", GCP,
                 id="gcs-object-glued"),
    pytest.param("curl --request=DELETE 'https://compute.googleapis.com/compute/v1/projects/p"
                 "/zones/z/instances/web'", GCP, id="compute-instance"),
    pytest.param("curl -sS -X delete https://sqladmin.googleapis.com/v1/projects/p/instances/db",
                 GCP, id="cloud-sql-lower"),
    pytest.param("curl -H \"Authorization: Bearer $(gcloud auth print-access-token)\" -X DELETE "
                 "https://cloudresourcemanager.googleapis.com/v3/projects/p", GCP,
                 id="project-with-token"),
    pytest.param("wget --method=DELETE https://container.googleapis.com/v1/projects/p/locations"
                 "/l/clusters/c", GCP, id="gke-wget"),
    pytest.param("http DELETE https://secretmanager.googleapis.com/v1/projects/p/secrets/s", GCP,
                 id="secret-httpie"),
    pytest.param("curl -X DELETE https://management.azure.com/subscriptions/s/resourcegroups/rg"
                 "?api-version=2021-04-01", AZ, id="azure-resource-group"),
    pytest.param("curl --request DELETE \"https://management.azure.com/subscriptions/s/providers"
                 "/Microsoft.Compute/virtualMachines/vm?api-version=1\"", AZ, id="azure-vm"),
    pytest.param("curl -XDELETE https://management.azure.com/subscriptions/s", AZ,
                 id="azure-subscription-glued"),
    pytest.param("xh DELETE https://management.azure.com/subscriptions/s/resourceGroups/rg", AZ,
                 id="azure-xh"),
    pytest.param("mongosh --eval 'db . dropDatabase ( )'", f"{MONGO}:drop-database",
                 id="mongo-spaced"),
    pytest.param("mongosh --eval 'db.users /* why */ .drop()'", f"{MONGO}:drop-collection",
                 id="mongo-comment"),
    pytest.param("mongosh --eval $'db.users // c\\n.drop()'", f"{MONGO}:drop-collection",
                 id="mongo-line-comment"),
    pytest.param("mongosh --eval \"db[ 'users' ] . drop()\"", f"{MONGO}:drop-collection",
                 id="mongo-bracket-spaced"),
    pytest.param("mongosh --eval \"db.getCollection( 'users' ).drop()\"",
                 f"{MONGO}:drop-collection", id="mongo-get-collection-spaced"),
    pytest.param("echo 'db . users . drop()' | mongosh", f"{MONGO}:drop-collection",
                 id="mongo-piped-spaced"),
    pytest.param("mongosh <<< \"db['users'] .deleteMany( {} )\"", f"{MONGO}:delete-all",
                 id="mongo-herestring-spaced"),
]  # fmt: skip

PASS = [
    pytest.param("curl https://storage.googleapis.com/storage/v1/b/logs", id="gcs-get"),
    pytest.param("curl -X GET https://compute.googleapis.com/compute/v1/projects/p", id="get"),
    pytest.param("curl -X POST https://storage.googleapis.com/upload/storage/v1/b/b/o",
                 id="gcs-post"),
    pytest.param("curl -X DELETE https://example.com/googleapis.com/x", id="not-the-host"),
    pytest.param("curl https://management.azure.com/subscriptions/s/resourceGroups",
                 id="azure-get"),
    pytest.param("curl -X PUT https://management.azure.com/subscriptions/s/resourcegroups/rg",
                 id="azure-put"),
    pytest.param("mongosh --eval 'db . stats ( )'", id="mongo-stats-spaced"),
    pytest.param("mongosh --eval 'db.users.find( { a: 1 } )'", id="mongo-find"),
    pytest.param("mongosh --eval \"db['users'].countDocuments()\"", id="mongo-count"),
]  # fmt: skip


@pytest.fixture(autouse=True)
def _generous_budget(isolated_home: Path) -> None:
    """Agreement, not speed, is measured here: a cold first call on a loaded machine must
    not blow the hook's time budget (which stops a safe line as too complex)."""
    config = Path(os.environ["XDG_CONFIG_HOME"]) / "dcg" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text("[hook]\nbudget_ms = 20000\n")


def _env() -> dict[str, str]:
    return dict(hookpath.packs_env(), DCG_HOOK_DETAILS="1")


@pytest.mark.parametrize(("command", "rule"), STOP)
def test_stopped_for_every_agent(command: str, rule: str) -> None:
    for agent in hookpath.AGENTS:
        body = hookpath.payload(agent, command, "/home/dev/project")
        code, out, err = hookpath.run(hookpath.encode(body), env=_env())
        assert hookpath.verdict(code, out, err) == "deny", agent
    body = hookpath.payload("claude", command, "/home/dev/project")
    _, out, _ = hookpath.run(hookpath.encode(body), env=_env())
    assert json.loads(out)["hookSpecificOutput"]["ruleId"] == rule


@pytest.mark.parametrize("command", PASS)
def test_passes_for_every_agent(command: str) -> None:
    for agent in hookpath.AGENTS:
        body = hookpath.payload(agent, command, "/home/dev/project")
        code, out, err = hookpath.run(hookpath.encode(body), env=_env())
        assert hookpath.verdict(code, out, err) == "none", agent


@pytest.mark.parametrize(("command", "rule"), [p for p in STOP if "mongo" in p.id])
def test_expansion_mongosh_reads_the_code(command: str, rule: str) -> None:
    """The proof by reading: what dcg matches is the call mongosh evaluates."""
    text = " ".join(c.text for c in parse(command) if c.name == "mongosh")
    assert any(f in text for f in (".drop()", ".dropDatabase()", ".deleteMany({})"))


def test_tight_js_keeps_strings() -> None:
    assert tight_js("db . x . find( { a: ' b . c ' } )") == "db.x.find({ a: ' b . c ' })"
    assert tight_js("db.x // drop()\n.count()") == "db.x.count()"
