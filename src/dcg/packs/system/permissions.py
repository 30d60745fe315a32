"""Permissions: recursive chmod/chown of / or system directories, world-writable trees."""

from dcg.model import Pack, Rule

_SYS = (
    r"(?:/|/(?:etc|usr|bin|sbin|lib|lib64|boot|var|home|root|opt|srv|dev|proc|sys|run)"
    r"(?:/[^\s/]+)?/?)"
)

PACK = Pack(
    "system.permissions",
    description="Permissions: chmod/chown/chgrp -R on / or system directories, recursive "
    "world-writable modes, permission changes on system files",
    rules=(
        Rule(
            "recursive-system",
            severity="critical",
            pattern=r"^(?:chmod|chown|chgrp)\s(?=(?:.*\s)?(?:-[a-zA-Z]*R[a-zA-Z]*|--recursive)(?:\s|$))"
            r"(?:.*\s)?" + _SYS + r"(?:\s|$)",
            reason="Recursive chmod/chown on / or a system directory",
            explanation="Changing ownership or modes of every file under /, /etc, /usr or /var "
            "breaks setuid binaries, sshd's key checks, sudo and package managers; restoring "
            "the original permissions file by file is rarely possible.",
            alternative="Change only the files that need it, without -R, and never on system "
            "directories.",
            blocks=(
                "chmod -R 777 /",
                "chown -R www-data:www-data /var",
                "sudo chmod -R u+w /etc/ssh",
            ),
            allows=("chmod -R 755 ./public", "chown -R app:app /srv/app/releases/42/uploads"),
        ),
        Rule(
            "world-writable-recursive",
            severity="high",
            pattern=r"^chmod\s(?=(?:.*\s)?(?:-[a-zA-Z]*R[a-zA-Z]*|--recursive)(?:\s|$))(?:.*\s)?"
            r"(?:0?[0-7]?77[67]|[ugoa]*[+=][rwxXst]*w[rwxXst]*)\s",
            reason="Makes a whole tree world-writable",
            explanation="Every user and process on the host can then modify or replace the "
            "files, including scripts that others execute; the previous modes are lost.",
            alternative="Grant write access to a group (chgrp + chmod g+w) or fix the owner "
            "instead.",
            blocks=("chmod -R 777 ./app", "chmod --recursive a+w shared/"),
            allows=("chmod -R 755 ./app", "chmod 777 /tmp/scratch.sock"),
        ),
        Rule(
            "system-file",
            severity="medium",
            pattern=r"^(?:chmod|chown|chgrp)\s(?:.*\s)?/(?:etc|usr|bin|sbin|boot|lib|lib64)"
            r"(?:/\S*)?$",
            reason="Changes permissions or ownership of a system file",
            explanation="Wrong modes on files like /etc/shadow, /etc/sudoers or binaries in "
            "/usr/bin either expose secrets or stop sudo, sshd or the package manager from "
            "working.",
            alternative="Use the package manager or the service's documented procedure, and "
            "note the current mode (stat) first.",
            blocks=("chmod 666 /etc/shadow", "chown nobody /usr/bin/sudo"),
            allows=("stat /etc/shadow", "chmod 600 ~/.ssh/id_ed25519"),
        ),
    ),
)
