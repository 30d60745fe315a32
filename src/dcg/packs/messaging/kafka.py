"""Apache Kafka (and Redpanda rpk): deleting topics, records, consumer groups, ACLs and configs."""

from dcg.model import Pack, Rule

# The Kafka CLI scripts, with or without `.sh` (`kafka-topics`, `kafka-topics.sh`).
_T = r"(?:\.sh)?\s"
_RPK = r"^rpk\s(?:-[^\s]*\s(?:[^\s-][^\s]*\s)?)*"

PACK = Pack(
    "messaging.kafka",
    description="Kafka and Redpanda: topic, record, consumer group, ACL and config deletion",
    rules=(
        Rule(
            "topic-delete-many",
            severity="critical",
            pattern=r"^kafka-topics"
            + _T
            + r"(?=(?:.*\s)?--delete(?:\s|$))(?:.*\s)?--topic[=\s](?:[^\s]*[*+]|__)",
            reason="kafka-topics --delete with a topic regex or an internal topic",
            explanation="--topic accepts a regular expression, so `.*` or `orders.*` deletes "
            "every matching topic; deleting an internal topic such as __consumer_offsets "
            "loses the committed offsets of every consumer group. Topic data is not "
            "recoverable.",
            alternative="List what the expression matches (kafka-topics --list) and delete "
            "topics one by one by exact name; never delete internal topics.",
            blocks=(
                "kafka-topics --bootstrap-server localhost:9092 --delete --topic "
                "__consumer_offsets",
                "kafka-topics.sh --bootstrap-server b:9092 --topic 'orders.*' --delete",
            ),
            allows=(
                "kafka-topics --bootstrap-server localhost:9092 --list --topic 'orders.*'",
                "kafka-topics --bootstrap-server localhost:9092 --describe --topic "
                "__consumer_offsets",
            ),
        ),
        Rule(
            "topic-delete",
            severity="high",
            pattern=r"(?:^kafka-topics"
            + _T
            + r"(?:.*\s)?--delete(?:\s|$)|"
            + _RPK
            + r"topic\s(?:delete|trim-prefix)\b)",
            reason="Deleting a Kafka topic removes all of its messages",
            explanation="Every partition of the topic is deleted with all messages not yet "
            "consumed or kept elsewhere; producers may recreate it empty with default settings.",
            alternative="Mirror or export the topic first, and check consumers with "
            "kafka-consumer-groups --describe.",
            blocks=(
                "kafka-topics --bootstrap-server localhost:9092 --delete --topic payments",
                "rpk topic delete orders",
            ),
            allows=(
                "kafka-topics --bootstrap-server localhost:9092 --describe --topic payments",
                "rpk topic describe orders",
            ),
        ),
        Rule(
            "delete-records",
            severity="high",
            pattern=r"^kafka-delete-records" + _T,
            reason="kafka-delete-records removes messages from the start of partitions",
            explanation="Every message before the offsets in the JSON file is deleted for good "
            "(an offset of -1 means all of them) for every listed partition.",
            alternative="Let retention expire old messages, or check the offsets file and "
            "the partitions' current offsets first.",
            blocks=(
                "kafka-delete-records --bootstrap-server localhost:9092 --offset-json-file "
                "offsets.json",
                "kafka-delete-records.sh --bootstrap-server b:9092 --offset-json-file o.json",
            ),
            allows=(
                "kafka-get-offsets --bootstrap-server localhost:9092 --topic payments",
                "kafka-topics --bootstrap-server localhost:9092 --list",
            ),
        ),
        Rule(
            "group-delete",
            severity="medium",
            pattern=r"(?:^kafka-consumer-groups"
            + _T
            + r"(?:.*\s)?--delete(?:-offsets)?(?:\s|$)|"
            + _RPK
            + r"group\s(?:delete|offset-delete)\b)",
            reason="Deleting a consumer group (or its offsets) loses its committed positions",
            explanation="When the group starts again it resumes from auto.offset.reset, "
            "which means reprocessing everything or skipping to the newest message.",
            alternative="Export the offsets first (kafka-consumer-groups --describe --group G).",
            blocks=(
                "kafka-consumer-groups --bootstrap-server localhost:9092 --delete --group billing",
                "rpk group delete analytics",
            ),
            allows=(
                "kafka-consumer-groups --bootstrap-server localhost:9092 --describe --group "
                "billing",
                "rpk group list",
            ),
        ),
        Rule(
            "reset-offsets",
            severity="medium",
            pattern=r"^kafka-consumer-groups"
            + _T
            + r"(?=(?:.*\s)?--reset-offsets(?:\s|$))(?:.*\s)?--execute(?:\s|$)",
            reason="kafka-consumer-groups --reset-offsets --execute moves a group's positions",
            explanation="The group will skip or reprocess messages from the new offsets; "
            "without --execute the command only prints the plan.",
            alternative="Run it with --dry-run first and save --describe output.",
            blocks=(
                "kafka-consumer-groups --bootstrap-server b:9092 --group g --reset-offsets "
                "--to-earliest --all-topics --execute",
                "kafka-consumer-groups.sh --reset-offsets --execute --to-latest --group g "
                "--topic t --bootstrap-server b:9092",
            ),
            allows=(
                "kafka-consumer-groups --bootstrap-server b:9092 --group g --reset-offsets "
                "--to-earliest --all-topics --dry-run",
                "kafka-consumer-groups --bootstrap-server b:9092 --list",
            ),
        ),
        Rule(
            "acl-remove",
            severity="medium",
            pattern=r"(?:^kafka-acls"
            + _T
            + r"(?:.*\s)?--remove(?:\s|$)|"
            + _RPK
            + r"acl\sdelete\b)",
            reason="Removing Kafka ACLs can cut producers and consumers off",
            explanation="Clients whose access came from the removed ACLs get authorization "
            "errors at once; a broad filter removes many ACLs in one go.",
            alternative="kafka-acls --list with the same filter first and keep the output.",
            blocks=(
                "kafka-acls --bootstrap-server localhost:9092 --remove --topic payments "
                "--operation All",
                "rpk acl delete --allow-principal User:app --operation all --topic orders",
            ),
            allows=(
                "kafka-acls --bootstrap-server localhost:9092 --list",
                "kafka-acls --bootstrap-server localhost:9092 --add --allow-principal User:a "
                "--topic t",
            ),
        ),
        Rule(
            "config-delete",
            severity="medium",
            pattern=r"^kafka-configs" + _T + r"(?:.*\s)?--delete-config(?:[=\s]|$)",
            reason="kafka-configs --delete-config reverts topic or broker settings to defaults",
            explanation="Removing an override such as retention.ms or cleanup.policy applies the "
            "broker default, which can delete data sooner or change compaction.",
            alternative="kafka-configs --describe first and keep the overrides.",
            blocks=(
                "kafka-configs --bootstrap-server b:9092 --alter --delete-config retention.ms "
                "--entity-type topics --entity-name logs",
                "kafka-configs.sh --alter --entity-type topics --entity-name o "
                "--delete-config cleanup.policy --bootstrap-server b:9092",
            ),
            allows=(
                "kafka-configs --bootstrap-server b:9092 --describe --entity-type topics "
                "--entity-name logs",
                "kafka-configs --bootstrap-server b:9092 --alter --add-config "
                "retention.ms=86400000 --entity-type topics --entity-name logs",
            ),
        ),
    ),
)
