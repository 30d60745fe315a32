"""Message brokers: Kafka, RabbitMQ, NATS and Amazon SQS/SNS."""
