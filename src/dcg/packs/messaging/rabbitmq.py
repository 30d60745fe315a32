"""RabbitMQ: deleting vhosts, queues, exchanges and users, purging queues, resetting nodes."""

from dcg.model import Pack, Rule

# `rabbitmqctl [-n node] [-p vhost] …`; commands are spelt with `_` (older `-` also accepted).
_CTL = r"^rabbitmqctl\s(?:-[^\s]*\s(?:[^\s-][^\s]*\s)?)*"
_ADMIN = r"^rabbitmqadmin\s(?:-[^\s]*\s(?:[^\s-][^\s]*\s)?)*"

PACK = Pack(
    "messaging.rabbitmq",
    description="RabbitMQ: vhost, queue, exchange, user and permission deletion, purge, reset",
    rules=(
        Rule(
            "reset-node",
            severity="critical",
            pattern=_CTL + r"(?:force[_-])?reset\b",
            reason="rabbitmqctl reset wipes the node's data: queues, messages, users, vhosts",
            explanation="reset (and force_reset) returns the node to a blank state and removes "
            "it from its cluster; every message, definition and user stored on it is lost.",
            alternative="Export definitions (rabbitmqctl export_definitions defs.json) and "
            "drain queues first; use forget_cluster_node to remove a dead node instead.",
            blocks=("rabbitmqctl reset", "rabbitmqctl -n rabbit@mq2 force_reset"),
            allows=("rabbitmqctl cluster_status", "rabbitmqctl export_definitions defs.json"),
        ),
        Rule(
            "vhost-delete",
            severity="critical",
            pattern=r"(?:" + _CTL + r"delete[_-]vhost\b|" + _ADMIN + r"delete\svhost\b)",
            reason="Deleting a vhost deletes every queue, exchange and message in it",
            explanation="A vhost is a whole broker namespace; deleting it removes all of its "
            "queues with their messages, exchanges, bindings, policies and permissions.",
            alternative="rabbitmqctl export_definitions first, and drain or shovel messages "
            "out of its queues.",
            blocks=("rabbitmqctl delete_vhost /prod", "rabbitmqadmin delete vhost name=/staging"),
            allows=("rabbitmqctl list_vhosts", "rabbitmqctl add_vhost /qa"),
        ),
        Rule(
            "queue-delete",
            severity="high",
            pattern=r"(?:"
            + _CTL
            + r"(?:delete|purge)[_-]queue\b|"
            + _ADMIN
            + r"(?:delete|purge)\squeue\b)",
            reason="Deleting or purging a queue discards its messages",
            explanation="Messages in the queue are dropped without being delivered; deleting "
            "also removes its bindings, so publishers' messages are routed nowhere.",
            alternative="Check the message count (rabbitmqctl list_queues name messages) and "
            "move messages with a shovel before deleting.",
            blocks=(
                "rabbitmqadmin delete queue name=jobs",
                "rabbitmqctl purge_queue -p /prod jobs",
            ),
            allows=("rabbitmqadmin list queues", "rabbitmqctl list_queues name messages"),
        ),
        Rule(
            "cluster-node",
            severity="high",
            pattern=_CTL + r"(?:forget[_-]cluster[_-]node|stop|stop[_-]app|shutdown)\b",
            reason="Stopping a RabbitMQ node or removing it from the cluster",
            explanation="Clients connected to the node are disconnected and classic queues "
            "hosted on it become unavailable; a forgotten node loses its local data when it "
            "rejoins.",
            alternative="Drain the node first (rabbitmq-upgrade drain) and check cluster_status.",
            blocks=("rabbitmqctl stop_app", "rabbitmqctl forget_cluster_node rabbit@mq3"),
            allows=("rabbitmqctl status", "rabbitmqctl start_app"),
        ),
        Rule(
            "exchange-delete",
            severity="medium",
            pattern=_ADMIN + r"delete\s(?:exchange|binding)\b",
            reason="Deleting an exchange or binding stops message routing",
            explanation="Publishers to a deleted exchange get channel errors; without the "
            "binding, messages no longer reach the queue and may be dropped.",
            alternative="rabbitmqadmin list exchanges/bindings and export definitions first.",
            blocks=(
                "rabbitmqadmin delete exchange name=events",
                "rabbitmqadmin delete binding source=ex destination=q",
            ),
            allows=("rabbitmqadmin list exchanges", "rabbitmqadmin list bindings"),
        ),
        Rule(
            "user-delete",
            severity="medium",
            pattern=r"(?:"
            + _CTL
            + r"(?:delete[_-]user|clear[_-]permissions|clear[_-]topic[_-]permissions)\b|"
            + _ADMIN
            + r"delete\s(?:user|permission|policy)\b)",
            reason="Deleting a RabbitMQ user or clearing permissions cuts clients off",
            explanation="Applications using the account cannot connect or lose access to the "
            "vhost; the password and permissions must be recreated by hand.",
            alternative="rabbitmqctl list_permissions and export_definitions first.",
            blocks=(
                "rabbitmqctl delete_user deployer",
                "rabbitmqctl clear_permissions -p /prod deployer",
            ),
            allows=("rabbitmqctl list_users", "rabbitmqctl list_permissions -p /prod"),
        ),
    ),
)
