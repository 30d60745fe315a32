"""Ansible: ad-hoc destructive modules against many hosts."""

from dcg.model import Pack, Rule

PACK = Pack(
    "infrastructure.ansible",
    description="Ansible: ad-hoc shell/command with destructive payloads, file state=absent, "
    "reboot and service stops against host groups",
    safe=(r"^ansible(?:-playbook)?\s(?:.*\s)?(?:--check|-C|--list-hosts|--syntax-check)(?:\s|$)",),
    rules=(
        Rule(
            "adhoc-destructive-shell",
            severity="critical",
            pattern=r"^ansible\s(?=(?:.*\s)?(?:-m|--module-name)(?:\s+|=)?(?:ansible\.builtin\.)?"
            r"(?:shell|command|raw)(?:\s|$))(?:.*\s)?(?:rm\s+-[a-zA-Z]*[rRf]|mkfs|dd\s|shutdown|"
            r"halt|poweroff|drop\s+database|truncate\s)",
            reason="An ad-hoc shell command runs a destructive payload on every matched host",
            explanation="ansible HOSTS -m shell -a '…' runs the payload on every host of the "
            "pattern in parallel, so one rm -rf, mkfs or shutdown hits a whole fleet at once.",
            alternative="Run it with --check against a single host (--limit), or write a "
            "playbook with serial: 1 and review it.",
            blocks=(
                "ansible all -m shell -a 'rm -rf /var/lib/app'",
                "ansible webservers -b -m command -a 'shutdown -h now'",
            ),
            allows=("ansible all -m shell -a 'df -h'", "ansible all -m ping"),
        ),
        Rule(
            "adhoc-file-absent",
            severity="high",
            pattern=r"^ansible\s(?=(?:.*\s)?(?:-m|--module-name)(?:\s+|=)?(?:ansible\.builtin\.)?file"
            r"(?:\s|$))(?:.*\s)?state=absent(?:\s|$)",
            reason="file state=absent deletes the path recursively on every matched host",
            explanation="The file module with state=absent removes files and whole "
            "directory trees, on every host the pattern selects.",
            alternative="Run with --check --diff and --limit to one host first.",
            blocks=(
                "ansible all -m file -a 'path=/srv/data state=absent'",
                "ansible db -m ansible.builtin.file -a 'state=absent path=/var/lib/postgresql'",
            ),
            allows=(
                "ansible all -m file -a 'path=/srv/data state=directory'",
                "ansible all -m file -a 'path=/srv/data state=absent' --check",
            ),
        ),
        Rule(
            "adhoc-reboot-or-stop",
            severity="high",
            pattern=r"^ansible\s(?:(?=(?:.*\s)?(?:-m|--module-name)(?:\s+|=)?(?:ansible\.builtin\.)?"
            r"reboot(?:\s|$))|(?=(?:.*\s)?(?:-m|--module-name)(?:\s+|=)?(?:ansible\.builtin\.)?"
            r"(?:service|systemd)(?:\s|$))(?=(?:.*\s)?state=stopped(?:\s|$)))",
            reason="Reboots hosts or stops services across a host group",
            explanation="The reboot module restarts every matched host and service "
            "state=stopped stops the service everywhere at once, which can take down a "
            "whole tier.",
            alternative="Use a playbook with serial and health checks, or --limit to one host.",
            blocks=(
                "ansible all -b -m reboot",
                "ansible web -m service -a 'name=nginx state=stopped'",
            ),
            allows=("ansible web -m service -a 'name=nginx state=started'", "ansible all -m setup"),
        ),
    ),
)
