"""AWS CLI: terminating and deleting compute, databases, stacks, functions, IAM and S3 data."""

from dcg.model import Pack, Rule

_A = r"^aws\s"

PACK = Pack(
    "cloud.aws",
    description="AWS CLI: ec2 terminate, rds/dynamodb deletes, cloudformation delete-stack, "
    "IAM deletes, lambda and other delete-* calls, s3 rm --recursive / rb --force",
    safe=(_A + r"(?:.*\s)?--dry-run(?:\s|$)", _A + r"(?:.*\s)?help$"),
    rules=(
        Rule(
            "s3-bulk-delete",
            severity="critical",
            pattern=_A + r"(?:(?=(?:.*\s)?--recursive(?:\s|$))(?:.*\s)?s3\s+rm\s|"
            r"(?=(?:.*\s)?--force(?:\s|$))(?:.*\s)?s3\s+rb\s)",
            reason="aws s3 rm --recursive / rb --force deletes objects in bulk",
            explanation="Every object under the prefix (or in the bucket, which rb --force then "
            "removes) is deleted. Without versioning nothing can be restored.",
            alternative="Use --dryrun first and copy the data elsewhere; enable the storage.s3 "
            "pack for finer S3 rules.",
            blocks=("aws s3 rm s3://logs --recursive", "aws s3 rb s3://old --force"),
            allows=("aws s3 ls s3://logs --recursive", "aws s3 rb s3://old"),
        ),
        Rule(
            "database-delete",
            severity="critical",
            pattern=_A
            + r"(?:.*\s)?(?:rds\s+delete-db-(?:instance|cluster)|dynamodb\s+delete-table|"
            r"redshift\s+delete-cluster|docdb\s+delete-db-cluster|elasticache\s+delete-"
            r"(?:cache-cluster|replication-group)|neptune\s+delete-db-cluster)\s",
            reason="Deletes a managed database (RDS, DynamoDB, Redshift, DocumentDB, ElastiCache)",
            explanation="The database and, unless a final snapshot is requested, its automated "
            "backups are deleted. With --skip-final-snapshot or for DynamoDB without backups "
            "the data is unrecoverable.",
            alternative="Take a manual snapshot (rds create-db-snapshot, dynamodb "
            "create-backup) and enable deletion protection on production databases.",
            blocks=(
                "aws rds delete-db-instance --db-instance-identifier prod --skip-final-snapshot",
                "aws dynamodb delete-table --table-name orders",
            ),
            allows=(
                "aws rds describe-db-instances",
                "aws rds create-db-snapshot --db-instance-identifier prod",
            ),
        ),
        Rule(
            "ec2-terminate",
            severity="high",
            pattern=_A
            + r"(?:.*\s)?(?:ec2\s+terminate-instances|autoscaling\s+delete-auto-scaling-group"
            r"|ec2\s+delete-(?:volume|snapshot|vpc)|eks\s+delete-cluster)\s",
            reason="Terminates instances or deletes volumes, snapshots, VPCs or clusters",
            explanation="Terminated instances and deleted EBS volumes or snapshots cannot be "
            "recovered; instance-store data and delete-on-termination volumes vanish with "
            "the instance.",
            alternative="Stop instances instead of terminating, snapshot volumes first, and "
            "enable termination protection.",
            blocks=(
                "aws ec2 terminate-instances --instance-ids i-0abc123",
                "aws ec2 delete-volume --volume-id vol-0123",
                "aws eks delete-cluster --name prod",
            ),
            allows=(
                "aws ec2 describe-instances",
                "aws ec2 stop-instances --instance-ids i-0abc123",
            ),
        ),
        Rule(
            "cloudformation-delete",
            severity="high",
            pattern=_A + r"(?:.*\s)?cloudformation\s+delete-stack\s",
            reason="delete-stack deletes every resource of the stack",
            explanation="CloudFormation deletes all resources the stack created, including "
            "databases and buckets whose deletion policy is not Retain.",
            alternative="Enable termination protection, set DeletionPolicy: Retain on stateful "
            "resources, and review the resource list (describe-stack-resources).",
            blocks=(
                "aws cloudformation delete-stack --stack-name prod-api",
                "aws --region us-east-1 cloudformation delete-stack --stack-name net",
            ),
            allows=(
                "aws cloudformation describe-stacks",
                "aws cloudformation list-stack-resources --stack-name prod-api",
            ),
        ),
        Rule(
            "iam-delete",
            severity="high",
            pattern=_A + r"(?:.*\s)?(?:iam\s+(?:delete|detach|remove)-[a-z-]+|organizations\s+"
            r"(?:close-account|remove-account-from-organization|delete-organization)|kms\s+"
            r"(?:schedule-key-deletion|disable-key))\s",
            reason="Deletes IAM identities or policies, KMS keys, or accounts",
            explanation="Removing users, roles, policies or access keys breaks everything that "
            "relies on them; a KMS key scheduled for deletion makes all data encrypted with "
            "it unreadable once the waiting period ends.",
            alternative="Deactivate instead of deleting (update-access-key --status Inactive, "
            "disable a role's trust policy), and export policies first.",
            blocks=(
                "aws iam delete-role --role-name deploy",
                "aws kms schedule-key-deletion --key-id 1234abcd",
            ),
            allows=("aws iam list-roles", "aws iam get-role --role-name deploy"),
        ),
        Rule(
            "delete",
            severity="medium",
            pattern=_A + r"(?:.*\s)?[a-z0-9-]+\s+(?:delete|deregister|purge|remove)-[a-z-]+\s",
            reason="An AWS delete-*/purge-*/deregister-* call removes a cloud resource",
            explanation="Lambda functions, queues, topics, log groups, secrets, load balancers "
            "and most other resources are deleted at once by their delete-* call, usually "
            "with their configuration and data.",
            alternative="Describe or export the resource first and make sure the profile and "
            "region are the ones you mean.",
            blocks=(
                "aws lambda delete-function --function-name resize",
                "aws logs delete-log-group --log-group-name /app/prod",
                "aws sqs purge-queue --queue-url https://sqs/q",
            ),
            allows=(
                "aws lambda get-function --function-name resize",
                "aws logs describe-log-groups",
            ),
        ),
    ),
)
