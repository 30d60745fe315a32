"""Secrets are taken out of command text; everything else is left as typed."""

from __future__ import annotations

import pytest

from dcg.redact import MASK, for_record, redact

HITS = [
    pytest.param(
        "git clone https://me:hunter2@github.com/o/r.git",
        "git clone https://me:***@github.com/o/r.git",
        id="url-password",
    ),
    pytest.param(
        "psql postgres://app:s3cr3t@db:5432/prod -c 'DROP TABLE x'",
        "psql postgres://app:***@db:5432/prod -c 'DROP TABLE x'",
        id="dsn-password",
    ),
    pytest.param(
        "mysql --password=hunter2 -e 'drop database x'",
        "mysql --password=*** -e 'drop database x'",
        id="password-equals",
    ),
    pytest.param("vault login --token s.abcdef123", "vault login --token ***", id="token-space"),
    pytest.param(
        "tool --db-password=pw1 --api-key KEY123 run",
        "tool --db-password=*** --api-key *** run",
        id="compound-options",
    ),
    pytest.param("mysql -u root -phunter2 prod", "mysql -u root -p*** prod", id="mysql-glued"),
    pytest.param(
        "GITHUB_TOKEN=abc123 gh repo delete o/r",
        "GITHUB_TOKEN=*** gh repo delete o/r",
        id="env-token",
    ),
    pytest.param(
        'export DB_PASSWORD="a b c"; rm -rf data',
        "export DB_PASSWORD=***; rm -rf data",
        id="env-quoted",
    ),
    pytest.param(
        "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY aws s3 rb s3://b --force",
        "AWS_SECRET_ACCESS_KEY=*** aws s3 rb s3://b --force",
        id="aws-secret",
    ),
    pytest.param(
        "aws configure set aws_access_key_id AKIAIOSFODNN7EXAMPLE",
        "aws configure set aws_access_key_id ***",
        id="aws-key-id",
    ),
    pytest.param(
        "curl -H 'Authorization: Bearer eyJhbGciOi.abc.def' -X DELETE https://api/x",
        "curl -H 'Authorization: Bearer ***' -X DELETE https://api/x",
        id="bearer-header",
    ),
    pytest.param(
        "curl -H 'Authorization: token ghp_0123456789abcdefghijABCDEFGHIJ012345' https://x",
        "curl -H 'Authorization: token ***' https://x",
        id="token-header",
    ),
    pytest.param(
        "http DELETE api/x 'Bearer abcdefgh12345678'",
        "http DELETE api/x 'Bearer ***'",
        id="bare-bearer",
    ),
    pytest.param(
        "curl -u admin:pa55 -X DELETE https://es/_all",
        "curl -u admin:*** -X DELETE https://es/_all",
        id="curl-user",
    ),
    pytest.param(
        "echo ghp_0123456789abcdefghijABCDEFGHIJ012345 | gh auth login --with-token",
        "echo *** | gh auth login --with-token",
        id="github-token",
    ),
    pytest.param("SLACK=1 notify xoxb-1234567890-abcdefghij", "SLACK=1 notify ***", id="slack"),
    pytest.param(
        "stripe --api-key sk_live_abcdefghijklmnop delete",
        "stripe --api-key *** delete",
        id="stripe",
    ),
    pytest.param("OPENAI=x run sk-proj-abcdefghijklmnopqrstuvwx", "OPENAI=x run ***", id="openai"),
    pytest.param(
        "kubectl --token=eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.sig delete ns x",
        "kubectl --token=*** delete ns x",
        id="jwt-option",
    ),
    pytest.param(
        "printf '-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----' > k",
        "printf '***' > k",
        id="private-key",
    ),
]

NO_OPS = [
    pytest.param("git reset --hard HEAD~1", id="git"),
    pytest.param("rm -rf ./build --no-preserve-root", id="rm"),
    pytest.param("gh auth login --with-token < token.txt", id="token-from-file"),
    pytest.param("kubectl --token-file=/run/t delete ns x", id="token-file-option"),
    pytest.param("git push https://github.com/o/r.git main", id="url-without-password"),
    pytest.param("ssh user@host 'rm -rf /srv/app'", id="user-at-host"),
    pytest.param("docker run -p 8080:80 nginx", id="docker-port"),
    pytest.param("terraform destroy -auto-approve", id="auto-approve"),
    pytest.param("passwd alice", id="passwd-command"),
    pytest.param("grep -r password src/", id="word-password"),
]


@pytest.mark.parametrize(("text", "expected"), HITS)
def test_secrets_are_masked(text: str, expected: str) -> None:
    assert redact(text) == expected


@pytest.mark.parametrize("text", NO_OPS)
def test_other_text_is_kept(text: str) -> None:
    assert redact(text) == text


def test_for_record_truncates_after_redacting() -> None:
    secret = "x" * 300
    text = f"mysql --password={secret} -e 'drop database prod'"
    out = for_record(text, limit=60)
    assert "xxx" not in out and out.startswith("mysql --password=***")
    assert for_record("rm -rf " + "a/" * 200, limit=50).endswith("…")
    assert len(for_record("rm -rf " + "a/" * 200, limit=50)) == 50
    assert for_record("git reset\n  --hard") == "git reset --hard"
    assert MASK == "***"
