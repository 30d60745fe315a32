"""Amazon SQS and SNS: deleting and purging queues, deleting topics and subscriptions."""

from dcg.model import Pack, Rule

# `aws [global options] sqs|sns `.
_AWS = r"^aws\s(?:-[^\s]*\s(?:[^\s-][^\s]*\s)?)*"

PACK = Pack(
    "messaging.sqs_sns",
    description="Amazon SQS and SNS: queue deletion and purge, topic and subscription deletion",
    safe=(r"^aws\s.*\shelp$",),
    rules=(
        Rule(
            "queue-delete",
            severity="high",
            pattern=_AWS + r"sqs\sdelete-queue\b",
            reason="aws sqs delete-queue deletes the queue and every message in it",
            explanation="The queue and its messages are deleted (it may take 60 seconds), and "
            "its name cannot be reused for 60 seconds; producers start failing at once.",
            alternative="Check ApproximateNumberOfMessages with get-queue-attributes and "
            "drain or redrive messages first.",
            blocks=(
                "aws sqs delete-queue --queue-url https://sqs.us-east-1.amazonaws.com/1/my-queue",
                "aws --region eu-west-1 sqs delete-queue --queue-url "
                "https://sqs.eu-west-1.amazonaws.com/1/q",
            ),
            allows=(
                "aws sqs get-queue-attributes --queue-url "
                "https://sqs.us-east-1.amazonaws.com/1/q --attribute-names All",
                "aws sqs delete-queue help",
            ),
        ),
        Rule(
            "queue-purge",
            severity="high",
            pattern=_AWS + r"sqs\spurge-queue\b",
            reason="aws sqs purge-queue deletes every message in the queue",
            explanation="All messages, including in-flight ones, are deleted and cannot be "
            "recovered; work that was queued is silently dropped.",
            alternative="Move messages to another queue (start-message-move-task) or receive "
            "and archive them first.",
            blocks=(
                "aws sqs purge-queue --queue-url https://sqs.us-east-1.amazonaws.com/1/my-queue",
                "aws sqs purge-queue --queue-url $QUEUE_URL --region us-east-1",
            ),
            allows=(
                "aws sqs list-queues",
                "aws sqs receive-message --queue-url https://sqs.us-east-1.amazonaws.com/1/q",
            ),
        ),
        Rule(
            "topic-delete",
            severity="high",
            pattern=_AWS + r"sns\s(?:delete-topic|delete-platform-application)\b",
            reason="aws sns delete-topic deletes the topic and all of its subscriptions",
            explanation="Publishers to the topic fail and every subscription (queues, "
            "lambdas, e-mail, HTTP endpoints) is removed with it; they must be recreated and, "
            "for e-mail, confirmed again.",
            alternative="list-subscriptions-by-topic and get-topic-attributes first and keep "
            "the output.",
            blocks=(
                "aws sns delete-topic --topic-arn arn:aws:sns:us-east-1:1:alerts",
                "aws sns delete-platform-application --platform-application-arn "
                "arn:aws:sns:us-east-1:1:app/GCM/a",
            ),
            allows=(
                "aws sns list-topics",
                "aws sns get-topic-attributes --topic-arn arn:aws:sns:us-east-1:1:alerts",
            ),
        ),
        Rule(
            "unsubscribe",
            severity="medium",
            pattern=_AWS
            + r"sns\s(?:unsubscribe|delete-endpoint|remove-permission)\b|"
            + _AWS
            + r"sqs\sremove-permission\b",
            reason="Removing an SNS subscription, endpoint or permission stops delivery",
            explanation="The subscriber no longer receives messages (alerts, fan-out queues); "
            "e-mail and HTTP subscriptions need a new confirmation to come back.",
            alternative="list-subscriptions-by-topic first and note the subscription's "
            "protocol, endpoint and filter policy.",
            blocks=(
                "aws sns unsubscribe --subscription-arn arn:aws:sns:us-east-1:1:alerts:abcd",
                "aws sqs remove-permission --queue-url "
                "https://sqs.us-east-1.amazonaws.com/1/q --label p",
            ),
            allows=(
                "aws sns list-subscriptions",
                "aws sns subscribe --topic-arn arn:aws:sns:us-east-1:1:t --protocol sqs",
            ),
        ),
        Rule(
            "message-delete",
            severity="medium",
            pattern=_AWS + r"sqs\sdelete-message(?:-batch)?\b",
            reason="aws sqs delete-message removes messages without processing them",
            explanation="A deleted message is gone from the queue; if its work was not done, "
            "it is lost.",
            alternative="Let the consumer delete messages after processing; redrive to a "
            "dead-letter queue instead of deleting by hand.",
            blocks=(
                "aws sqs delete-message --queue-url https://sqs.us-east-1.amazonaws.com/1/q "
                "--receipt-handle AQEB",
                "aws sqs delete-message-batch --queue-url "
                "https://sqs.us-east-1.amazonaws.com/1/q --entries file://e.json",
            ),
            allows=(
                "aws sqs receive-message --queue-url https://sqs.us-east-1.amazonaws.com/1/q",
                "aws sqs change-message-visibility --queue-url "
                "https://sqs.us-east-1.amazonaws.com/1/q --receipt-handle A "
                "--visibility-timeout 0",
            ),
        ),
    ),
)
