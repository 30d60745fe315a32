"""Google Cloud CLI: deleting projects, instances, databases, clusters and storage."""

from dcg.model import Pack, Rule
from dcg.packs._http import sends

_G = r"^gcloud\s"

PACK = Pack(
    "cloud.gcp",
    description="gcloud: projects delete, sql/spanner/bigtable deletes, compute and GKE "
    "deletes, storage rm -r, other delete commands",
    safe=(_G + r"(?:.*\s)?(?:--help|-h)$", _G + r"(?:.*\s)?help\s"),
    rules=(
        Rule(
            "project-delete",
            severity="critical",
            pattern=_G + r"(?:.*\s)?projects\s+delete\s",
            reason="gcloud projects delete shuts down a whole project",
            explanation="Every resource, service and piece of data in the project is stopped "
            "and scheduled for deletion; billing and APIs stop at once.",
            alternative="Remove specific resources instead, or restrict access; a project can "
            "be restored with gcloud projects undelete within 30 days.",
            blocks=(
                "gcloud projects delete my-prod-123",
                "gcloud --quiet projects delete sandbox-9",
            ),
            allows=("gcloud projects list", "gcloud projects describe my-prod-123"),
        ),
        Rule(
            "database-delete",
            severity="critical",
            pattern=_G
            + r"(?:.*\s)?(?:sql\s+(?:instances|databases)|spanner\s+(?:instances|databases)"
            r"|bigtable\s+instances|firestore\s+databases|redis\s+instances|alloydb\s+clusters)"
            r"\s+delete\s",
            reason="Deletes a managed database instance or database",
            explanation="Cloud SQL, Spanner, Bigtable, Firestore or Memorystore data is removed "
            "with the instance; Cloud SQL deletes its automated backups too.",
            alternative="Export or back up first (gcloud sql backups create / export) and turn "
            "on deletion protection.",
            blocks=(
                "gcloud sql instances delete prod-db",
                "gcloud spanner databases delete ledger --instance=main",
            ),
            allows=("gcloud sql instances list", "gcloud sql backups create --instance=prod-db"),
        ),
        Rule(
            "storage-rm-recursive",
            severity="critical",
            pattern=_G + r"(?=(?:.*\s)?(?:-r|-R|--recursive)(?:\s|$))(?:.*\s)?storage\s+rm\s",
            reason="gcloud storage rm -r deletes every object under the URL",
            explanation="All objects of the bucket or prefix (and the bucket itself when the "
            "URL is gs://bucket) are deleted; without object versioning or soft delete they "
            "are gone.",
            alternative="List with gcloud storage ls -r first and copy what matters.",
            blocks=(
                "gcloud storage rm -r gs://prod-assets",
                "gcloud storage rm --recursive gs://b/logs/",
            ),
            allows=("gcloud storage ls -r gs://prod-assets", "gcloud storage cp -r gs://b/logs ."),
        ),
        Rule(
            "compute-delete",
            severity="high",
            pattern=_G + r"(?:.*\s)?(?:compute\s+(?:instances|disks|snapshots|images|"
            r"instance-groups\s+managed)|container\s+clusters|functions|run\s+services)\s+delete\s",
            reason="Deletes VMs, disks, snapshots, GKE clusters or serverless services",
            explanation="Deleted disks and snapshots cannot be recovered, and a VM's boot disk "
            "usually goes with it; deleting a GKE cluster removes every workload on it.",
            alternative="Stop the VM instead, snapshot disks first (gcloud compute disks "
            "snapshot), and use --keep-disks=all when deleting instances.",
            blocks=(
                "gcloud compute instances delete web-1 --zone us-central1-a",
                "gcloud container clusters delete prod",
            ),
            allows=("gcloud compute instances stop web-1", "gcloud container clusters list"),
        ),
        Rule(
            "delete",
            severity="medium",
            pattern=_G + r"(?:.*\s)?delete\s",
            reason="A gcloud delete command removes a cloud resource",
            explanation="Networks, service accounts, secrets, topics and other resources are "
            "deleted at once with their configuration, and --quiet skips the prompt.",
            alternative="Describe the resource first and check the active project "
            "(gcloud config get-value project).",
            blocks=(
                "gcloud iam service-accounts delete ci@p.iam.gserviceaccount.com",
                "gcloud pubsub topics delete events",
            ),
            allows=(
                "gcloud pubsub topics list",
                "gcloud iam service-accounts describe ci@p.iam.gserviceaccount.com",
            ),
        ),
        Rule(
            "rest-delete",
            severity="high",
            pattern=sends("DELETE") + r"https?://" + r"(?:[\w-]+\.)?googleapis\.com/",
            reason="an HTTP DELETE to a Google Cloud API removes the resource the URL names",
            explanation="curl -X DELETE on *.googleapis.com is gcloud ... delete without "
            "gcloud and without its prompt: buckets, objects, instances, databases, secrets "
            "or whole projects go at once.",
            alternative="GET the URL first; use the gcloud command, which names what it "
            "deletes and asks.",
            blocks=(
                "curl -X DELETE https://storage.googleapis.com/storage/v1/b/bucket/o/obj",
                "curl -XDELETE https://compute.googleapis.com/compute/v1/projects/p/zones/z/instances/i",
                "wget --method=DELETE https://sqladmin.googleapis.com/v1/projects/p/instances/db",
            ),
            allows=(
                "curl https://storage.googleapis.com/storage/v1/b/bucket",
                "curl -X GET https://compute.googleapis.com/compute/v1/projects/p/zones/z/instances",
                "curl -X DELETE https://example.com/googleapis.com/x",
            ),
        ),
    ),
)
