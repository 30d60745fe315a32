"""ssh: destructive commands passed to a remote shell."""

from dcg.model import Pack, Rule
from dcg.targets import over_ssh

PACK = Pack(
    "remote.ssh",
    description="ssh: remote payloads that wipe disks, power hosts off or delete recursively",
    rules=(
        Rule(
            "remote-wipe-or-halt",
            severity="critical",
            check=over_ssh,
            pattern=r"^(?:mkfs(?:\.\w+)?|wipefs|dd(?=\s(?:.*\s)?of=/dev/)|shutdown|"
            r"reboot|halt|poweroff|init\s+[06])(?:\s|$)",
            reason="The remote command formats disks or shuts the host down",
            explanation="ssh hands its arguments to the remote shell, so mkfs, dd to a device "
            "or shutdown run there with whatever privileges the remote user has. A host you "
            "shut down may not be reachable again without console access.",
            alternative="Log in interactively and check the host name and device first; "
            "reboot through your provider's console or orchestration.",
            blocks=(
                "ssh root@db1 'mkfs.ext4 /dev/sdb'",
                "ssh admin@web1 sudo shutdown -h now",
                "ssh -p 2222 host 'dd if=/dev/zero of=/dev/sda bs=1M'",
            ),
            allows=("ssh admin@web1 uptime", "ssh db1 'lsblk -f'"),
        ),
        Rule(
            "remote-rm-recursive",
            severity="high",
            check=over_ssh,
            pattern=r"^rm\s+(?:-[a-zA-Z]+\s+)?(?:-[a-zA-Z]*[rR][a-zA-Z]*|--recursive)"
            r"(?:\s|$)",
            reason="The remote command deletes directories recursively",
            explanation="The payload runs on the remote host, where dcg cannot see what the "
            "paths or variables resolve to; a recursive rm there is as final as locally.",
            alternative="Log in, list the target first (ls -la), and delete interactively or "
            "move it aside.",
            blocks=(
                "ssh deploy@web1 'rm -rf /var/www/app'",
                "ssh web1 sudo rm -f -r /srv/releases",
            ),
            allows=("ssh web1 'ls -la /var/www/app'", "ssh web1 rm /tmp/deploy.lock"),
        ),
    ),
)
