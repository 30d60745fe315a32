"""Amazon Route 53: deleting hosted zones, changing record sets, DNSSEC and domain registrations."""

from dcg.model import Pack, Rule

# `aws [global options] route53|route53domains `.
_AWS = r"^aws\s(?:-[^\s]*\s(?:[^\s-][^\s]*\s)?)*"

PACK = Pack(
    "dns.route53",
    description="Route 53: hosted zone deletion, record changes, DNSSEC, domain registrations",
    safe=(r"^aws\s.*\shelp$",),
    rules=(
        Rule(
            "domain-delete",
            severity="critical",
            pattern=_AWS
            + r"route53domains\s(?:delete-domain|transfer-domain-to-another-aws-account)\b",
            reason="Deleting or transferring away a registered domain",
            explanation="delete-domain gives up the registration: the name stops resolving "
            "and can be registered by anyone once released. A transfer to another account "
            "hands over control of the domain.",
            alternative="Disable auto-renew only when you really mean to let it lapse; keep "
            "the domain and remove records instead.",
            blocks=(
                "aws route53domains delete-domain --domain-name example.com",
                "aws --region us-east-1 route53domains transfer-domain-to-another-aws-account "
                "--domain-name example.com --account-id 1",
            ),
            allows=(
                "aws route53domains get-domain-detail --domain-name example.com",
                "aws route53domains list-domains",
            ),
        ),
        Rule(
            "zone-delete",
            severity="critical",
            pattern=_AWS + r"route53\s(?:delete-hosted-zone|disassociate-vpc-from-hosted-zone)\b",
            reason="Deleting a hosted zone takes a whole domain's DNS offline",
            explanation="Without the zone every name in the domain stops resolving; a new zone "
            "gets different name servers, so the registrar's delegation must be changed too "
            "and caches keep failing until TTLs expire. Disassociating a VPC does the same "
            "for a private zone inside that VPC.",
            alternative="Export the records (list-resource-record-sets > zone.json) and check "
            "the zone is no longer delegated before deleting it.",
            blocks=(
                "aws route53 delete-hosted-zone --id Z123456ABCDEFG",
                "aws route53 disassociate-vpc-from-hosted-zone --hosted-zone-id Z1 --vpc "
                "VPCRegion=us-east-1,VPCId=vpc-1",
            ),
            allows=(
                "aws route53 list-hosted-zones",
                "aws route53 get-hosted-zone --id Z123456ABCDEFG",
            ),
        ),
        Rule(
            "dnssec",
            severity="high",
            pattern=_AWS + r"route53\s(?:disable-hosted-zone-dnssec"
            r"|delete-key-signing-key|deactivate-key-signing-key)\b",
            reason="Changing DNSSEC signing can make the whole domain fail validation",
            explanation="If the DS record at the parent still points at a key that no longer "
            "signs the zone, validating resolvers answer SERVFAIL for every name in it.",
            alternative="Remove the DS record at the registrar and wait for its TTL before "
            "disabling signing or removing a key.",
            blocks=(
                "aws route53 disable-hosted-zone-dnssec --hosted-zone-id Z1",
                "aws route53 delete-key-signing-key --hosted-zone-id Z1 --name ksk1",
            ),
            allows=("aws route53 get-dnssec --hosted-zone-id Z1", "aws route53 list-hosted-zones"),
        ),
        Rule(
            "change-records",
            severity="high",
            pattern=_AWS + r"route53\schange-resource-record-sets\b",
            reason="change-resource-record-sets edits or deletes live DNS records",
            explanation="The change batch (often in a file) can DELETE or UPSERT any record of "
            "the zone; a wrong value redirects or breaks traffic at once, and resolvers cache "
            "it for the record's TTL.",
            alternative="Export the current records first (list-resource-record-sets) and "
            "review the change batch; lower the TTL ahead of risky changes.",
            blocks=(
                "aws route53 change-resource-record-sets --hosted-zone-id Z1 --change-batch "
                "file://delete.json",
                "aws --profile prod route53 change-resource-record-sets --hosted-zone-id Z1 "
                "--change-batch file://c.json",
            ),
            allows=(
                "aws route53 list-resource-record-sets --hosted-zone-id Z1",
                "aws route53 test-dns-answer --hosted-zone-id Z1 --record-name "
                "www.example.com --record-type A",
            ),
        ),
        Rule(
            "delete-other",
            severity="medium",
            pattern=_AWS + r"route53\s(?:delete-health-check|delete-traffic-policy(?:-instance)?"
            r"|delete-query-logging-config"
            r"|delete-reusable-delegation-set|delete-cidr-collection)\b",
            reason="Deleting Route 53 health checks, traffic policies or logging",
            explanation="Failover and weighted records that use a deleted health check stop "
            "failing over; traffic policy instances own records that disappear with them.",
            alternative="Check which records reference the object first.",
            blocks=(
                "aws route53 delete-health-check --health-check-id abc",
                "aws route53 delete-traffic-policy-instance --id tp-1",
            ),
            allows=(
                "aws route53 list-health-checks",
                "aws route53 get-health-check-status --health-check-id abc",
            ),
        ),
    ),
)
