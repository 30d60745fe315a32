"""scp: copying over system paths or SSH keys, locally or on a remote host."""

from dcg.model import Pack, Rule

PACK = Pack(
    "remote.scp",
    description="scp: overwriting system directories, / or authorized_keys on either side",
    rules=(
        Rule(
            "overwrite-authorized-keys",
            severity="high",
            pattern=r"^scp\s(?:.*\s)?(?:[^\s/]+:)?\S*\.ssh/authorized_keys$",
            reason="scp replaces authorized_keys, which can lock everyone else out",
            explanation="The remote authorized_keys is overwritten rather than appended to, so "
            "every key not in the copied file loses access.",
            alternative="Use ssh-copy-id, which appends keys, or edit the file in place.",
            blocks=(
                "scp id.pub web1:.ssh/authorized_keys",
                "scp keys root@web1:/root/.ssh/authorized_keys",
            ),
            allows=("ssh-copy-id -i id.pub web1", "scp web1:.ssh/authorized_keys ./keys.bak"),
        ),
        Rule(
            "overwrite-system-path",
            severity="high",
            pattern=r"^scp\s(?:.*\s)?(?:[^\s/]+:)?(?:/|/(?:etc|bin|sbin|usr|lib|lib64|boot|root|"
            r"var/lib|opt)(?:/\S*)?)$",
            reason="scp writes into a system directory, overwriting files there",
            explanation="scp silently replaces existing files at the destination. Copying into "
            "/etc, /usr, /boot or the root directory can overwrite configuration or binaries "
            "and leave the host unbootable or unreachable.",
            alternative="Copy to a staging directory (/tmp), compare with diff, then move "
            "files into place with a backup (install -b).",
            blocks=(
                "scp sshd_config root@web1:/etc/ssh/sshd_config",
                "scp -r build/ host:/",
                "sudo scp backup@nas:/passwd /etc/passwd",
            ),
            allows=("scp root@web1:/etc/ssh/sshd_config ./", "scp app.tar.gz web1:/tmp/"),
        ),
    ),
)
