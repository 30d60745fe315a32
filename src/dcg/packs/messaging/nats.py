"""NATS JetStream: deleting and purging streams, consumers, KV and object stores."""

from dcg.model import Pack, Rule

# `nats [global flags] ` (--context C, -s URL, --creds F, …).
_NATS = r"^nats\s(?:-[^\s]*\s(?:[^\s-][^\s]*\s)?)*"

PACK = Pack(
    "messaging.nats",
    description="NATS JetStream: stream, consumer, key-value and object store deletion and purge",
    rules=(
        Rule(
            "stream-delete",
            severity="high",
            pattern=_NATS + r"(?:stream|str)\s(?:delete|rm|del)\b",
            reason="nats stream delete removes a JetStream stream with all its messages",
            explanation="The stream, its stored messages and its consumers are deleted; "
            "publishers to its subjects get no acknowledgements until it is recreated.",
            alternative="Back it up first (nats stream backup STREAM dir/) and check "
            "nats stream info.",
            blocks=("nats stream delete ORDERS", "nats --context prod stream rm PAYMENTS -f"),
            allows=("nats stream info ORDERS", "nats stream backup ORDERS /backup/orders"),
        ),
        Rule(
            "stream-purge",
            severity="high",
            pattern=_NATS + r"(?:stream|str)\s(?:purge|rmm)\b",
            reason="nats stream purge deletes messages from a stream",
            explanation="purge drops all messages (or those of a subject / up to a sequence); "
            "rmm removes single messages. Unconsumed messages are lost.",
            alternative="nats stream backup first; purge with --subject or --keep to limit it.",
            blocks=("nats stream purge ORDERS", "nats stream rmm ORDERS 42 -f"),
            allows=("nats stream view ORDERS", "nats stream list"),
        ),
        Rule(
            "kv-delete",
            severity="high",
            pattern=_NATS
            + r"(?:kv\s(?:del|rm|purge)|(?:bucket|object|obj)\s(?:delete|del|rm|purge))\b",
            reason="Deleting or purging a NATS key-value bucket, key or object store",
            explanation="`nats kv del BUCKET` without a key deletes the whole bucket; with a "
            "key (and --purge, or `kv purge`) the key's history is removed. Object store "
            "deletes drop the stored files.",
            alternative="Read the values first (nats kv get / nats kv history) and back the "
            "bucket's stream up.",
            blocks=(
                "nats kv del CONFIG api-key --purge",
                "nats kv purge CONFIG",
                "nats object rm ASSETS logo.png",
            ),
            allows=("nats kv get CONFIG api-key", "nats kv ls CONFIG"),
        ),
        Rule(
            "consumer-delete",
            severity="medium",
            pattern=_NATS + r"(?:consumer|con)\s(?:delete|rm|del)\b",
            reason="nats consumer delete removes a durable consumer and its position",
            explanation="The consumer's acknowledgement state is lost; a recreated consumer "
            "starts from its deliver policy and may redeliver or skip messages.",
            alternative="nats consumer info first and keep its configuration (--json).",
            blocks=("nats consumer delete ORDERS CONSUMER1", "nats con rm PAYMENTS worker -f"),
            allows=("nats consumer info ORDERS CONSUMER1", "nats consumer list ORDERS"),
        ),
    ),
)
