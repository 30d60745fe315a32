"""Services: stopping critical services, and shutting down or rebooting the host."""

from dcg.model import Pack, Rule

_CRITICAL = (
    r"(?:sshd?|networking|NetworkManager|systemd-networkd|systemd-resolved|dbus|docker|"
    r"containerd|kubelet|postgresql(?:@\S+)?|mysqld?|mariadb|mongod|redis(?:-server)?|nginx|"
    r"apache2|httpd|firewalld|ufw|iptables|nftables|cron|crond|rsyslog|systemd-journald)"
    r"(?:\.service)?"
)

PACK = Pack(
    "system.services",
    description="Services: shutdown/reboot/halt/poweroff, systemctl stop/disable/mask of "
    "critical services (ssh, network, databases, web servers, container runtimes)",
    safe=(r"^(?:shutdown\s+-c|systemctl\s(?:.*\s)?(?:--help|-h))(?:\s|$)",),
    rules=(
        Rule(
            "power",
            severity="high",
            pattern=r"^(?:shutdown|reboot|halt|poweroff)(?:\s|$)|^systemctl\s(?:.*\s)?"
            r"(?:reboot|poweroff|halt|kexec|soft-reboot|emergency|rescue)(?:\s|$)|"
            r"^(?:tel)?init\s+[016sS](?:\s|$)",
            reason="Shuts down, reboots or changes the runlevel of the host",
            explanation="Every process on the machine is stopped, including other people's "
            "work and production services; a remote host may not come back without console "
            "access.",
            alternative="Schedule it (shutdown -r +10) so it can be cancelled with "
            "shutdown -c, and restart single services instead when possible.",
            blocks=("shutdown -h now", "sudo reboot", "systemctl poweroff", "init 0"),
            allows=("shutdown -c", "uptime", "systemctl status"),
        ),
        Rule(
            "stop-critical",
            severity="high",
            pattern=r"^systemctl\s(?:.*\s)?(?:stop|disable|mask|kill)\s+(?:--?[a-z-]+\s+)?"
            r"(?:--?[a-z-]+\s+)?"
            + _CRITICAL
            + r"(?:\s|$)|^service\s+"
            + _CRITICAL
            + r"\s+stop(?:\s|$)",
            reason="Stops or disables a critical service (ssh, networking, database, web "
            "server, container runtime)",
            explanation="Stopping sshd or the network on a remote host locks you out; stopping "
            "a database, web server or container runtime takes everything depending on it "
            "down, and disable/mask keeps it down after a reboot.",
            alternative="Use systemctl restart or reload, and check systemctl status first.",
            blocks=(
                "systemctl stop sshd",
                "sudo systemctl disable --now docker",
                "service postgresql stop",
            ),
            allows=("systemctl restart nginx", "systemctl status sshd", "service nginx reload"),
        ),
        Rule(
            "stop",
            severity="low",
            pattern=r"^systemctl\s(?:.*\s)?(?:stop|disable|mask|kill)\s",
            reason="Stops or disables a system service",
            explanation="The service stops serving until started again; disable and mask also "
            "keep it from starting at boot.",
            alternative="Check what depends on it (systemctl list-dependencies --reverse) and "
            "prefer restart.",
            blocks=("systemctl stop myapp", "systemctl mask bluetooth"),
            allows=("systemctl start myapp", "systemctl is-active myapp"),
        ),
    ),
)
