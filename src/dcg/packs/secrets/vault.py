"""HashiCorp Vault: disabling engines and auth methods, destroying secrets, revoking leases."""

from dcg.model import Pack, Rule

PACK = Pack(
    "secrets.vault",
    description="HashiCorp Vault: secrets engines, KV deletion, policies, auth methods, leases",
    rules=(
        Rule(
            "operator-restore",
            severity="critical",
            pattern=r"^vault\soperator\sraft\ssnapshot\srestore\b",
            reason="vault operator raft snapshot restore replaces all of Vault's data",
            explanation="Restoring a Raft snapshot overwrites the whole storage backend with "
            "the snapshot's content: every secret, policy, token and lease written since it "
            "was taken is lost, and with -force a snapshot from another cluster is accepted.",
            alternative="Save a fresh snapshot first (vault operator raft snapshot save now.snap) "
            "and restore into a test cluster to check it.",
            blocks=(
                "vault operator raft snapshot restore backup.snap",
                "vault operator raft snapshot restore -force old-cluster.snap",
            ),
            allows=(
                "vault operator raft snapshot save backup.snap",
                "vault operator raft list-peers",
            ),
        ),
        Rule(
            "secrets-disable",
            severity="critical",
            pattern=r"^vault\s(?:secrets\sdisable|unmount)\b",
            reason="vault secrets disable deletes the engine and every secret stored in it",
            explanation="Disabling a secrets engine unmounts it, revokes all its leases and "
            "deletes all data stored under its path. There is no undo: re-enabling the engine "
            "at the same path gives an empty one.",
            alternative="Take a snapshot (vault operator raft snapshot save), or move the mount "
            "with vault secrets move if you only want another path.",
            blocks=("vault secrets disable secret/", "vault secrets disable -namespace=team kv/"),
            allows=("vault secrets list", "vault secrets enable -path=kv2 kv-v2"),
        ),
        Rule(
            "auth-disable",
            severity="high",
            pattern=r"^vault\sauth\sdisable\b",
            reason="vault auth disable removes an auth method and revokes its tokens",
            explanation="Disabling an auth method deletes its configuration and roles and "
            "revokes every token issued through it, so users and applications that log in "
            "with it are cut off until it is rebuilt by hand.",
            alternative="Read and save the method's config and roles first (vault read "
            "auth/<path>/config, vault list auth/<path>/role); tune it instead if possible.",
            blocks=("vault auth disable github", "vault auth disable -namespace=ops approle/"),
            allows=("vault auth list", "vault auth enable github"),
        ),
        Rule(
            "kv-destroy",
            severity="high",
            pattern=r"^vault\skv\s(?:destroy|metadata\sdelete)\b",
            reason="vault kv destroy / metadata delete erases secret versions permanently",
            explanation="`kv destroy` permanently removes the data of the given versions; "
            "`kv metadata delete` removes the key with all of its versions and history. "
            "Unlike `kv delete`, neither can be undone with `kv undelete`.",
            alternative="Use vault kv delete (soft delete, reversible with vault kv undelete), "
            "and vault kv get -version=N to keep a copy first.",
            blocks=(
                "vault kv destroy -versions=1-3 secret/myapp/config",
                "vault kv metadata delete -mount=secret myapp/config",
            ),
            allows=(
                "vault kv metadata get secret/myapp/config",
                "vault kv undelete -versions=2 secret/a",
            ),
        ),
        Rule(
            "delete",
            severity="high",
            pattern=r"^vault\sdelete\b",
            reason="vault delete removes whatever lives at a path (secrets, roles, config)",
            explanation="The generic delete works on any path: a KV v1 secret (gone for good), "
            "a role of a database or PKI engine, a policy under sys/, or an auth method's "
            "configuration.",
            alternative="vault read the path first and keep the output; for KV v2 use vault kv "
            "delete, which can be undone.",
            blocks=("vault delete secret/myapp/config", "vault delete database/roles/readonly"),
            allows=("vault read secret/myapp/config", "vault list database/roles"),
        ),
        Rule(
            "lease-revoke",
            severity="high",
            pattern=r"^vault\s(?:lease\srevoke|revoke)\b",
            reason=(
                "vault lease revoke invalidates issued credentials (a whole prefix with -prefix)"
            ),
            explanation="Revoking a lease makes the engine delete the dynamic credentials behind "
            "it (database users, cloud keys). With -prefix every lease under a path is revoked "
            "at once, and with -force even when the backend cleanup fails.",
            alternative="Revoke single lease ids, check them with vault lease lookup first, and "
            "let short TTLs expire credentials instead of mass revocation.",
            blocks=(
                "vault lease revoke -prefix secret/",
                "vault lease revoke database/creds/ro/abc",
            ),
            allows=("vault lease lookup lease_id", "vault lease renew database/creds/ro/abc"),
        ),
        Rule(
            "kv-delete",
            severity="medium",
            pattern=r"^vault\skv\sdelete\b",
            reason="vault kv delete removes the latest version of a secret",
            explanation="On KV v2 this is a soft delete of the latest version that `vault kv "
            "undelete` reverts; readers get nothing until then. On a KV v1 mount it deletes "
            "the secret for good.",
            alternative="vault kv get the secret first; prefer vault kv put of a new version.",
            blocks=("vault kv delete secret/myapp/config", "vault kv delete -mount=kv app/db"),
            allows=("vault kv get secret/myapp/config", "vault kv list secret/"),
        ),
        Rule(
            "policy-delete",
            severity="medium",
            pattern=r"^vault\spolicy\sdelete\b",
            reason="vault policy delete removes an access policy that tokens rely on",
            explanation="Tokens and roles that reference the policy lose its permissions at "
            "once, which breaks applications; the policy text must be rewritten to restore it.",
            alternative="vault policy read <name> > <name>.hcl first.",
            blocks=("vault policy delete myapp-policy", "vault policy delete -namespace=ops admin"),
            allows=("vault policy list", "vault policy read myapp-policy"),
        ),
        Rule(
            "operator-seal",
            severity="medium",
            pattern=r"^vault\soperator\s(?:seal|raft\sremove-peer)\b",
            reason="Sealing Vault or removing a Raft peer takes secrets offline",
            explanation="A sealed Vault answers no requests until enough unseal keys are "
            "entered; removing a Raft peer shrinks the cluster and can cost it its quorum.",
            alternative="Use vault operator step-down to move leadership; check vault operator "
            "raft list-peers before removing a peer.",
            blocks=("vault operator seal", "vault operator raft remove-peer node3"),
            allows=("vault operator raft list-peers", "vault status"),
        ),
        Rule(
            "audit-disable",
            severity="medium",
            pattern=r"^vault\saudit\sdisable\b",
            reason="vault audit disable stops recording who accessed which secret",
            explanation="Without an audit device Vault keeps no log of requests; access in "
            "the meantime cannot be reconstructed later.",
            alternative="Enable the new audit device before disabling the old one.",
            blocks=("vault audit disable file/", "vault audit disable syslog"),
            allows=("vault audit list", "vault audit enable file file_path=/var/log/vault.log"),
        ),
    ),
)
