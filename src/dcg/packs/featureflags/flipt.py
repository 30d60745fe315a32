"""Flipt: drop-and-import, deleting namespaces, flags, segments and rules."""

from dcg.model import Pack, Rule
from dcg.packs._http import SEG, sends

_DELETE = sends("DELETE") + r"/api/v1/"

PACK = Pack(
    "featureflags.flipt",
    description="Flipt: import --drop, namespace, flag, segment and rule deletion",
    rules=(
        Rule(
            "import-drop",
            severity="critical",
            pattern=r"^flipt\s(?:.*\s)?import\s(?:.*\s)?--drop\b",
            reason="flipt import --drop deletes all existing data before importing",
            explanation="Every namespace, flag, segment and rule in the database is dropped; "
            "anything the import file lacks is lost.",
            alternative="flipt export > backup.yml first, and import without --drop.",
            blocks=(
                "flipt import --drop flags.yml",
                "flipt import --drop --address grpc://flipt:9000 f.yml",
            ),
            allows=("flipt export -o backup.yml", "flipt import flags.yml"),
        ),
        Rule(
            "namespace-delete",
            severity="critical",
            pattern=_DELETE + r"namespaces/" + SEG + r"/?(?:[?\s]|$)",
            reason="Deleting a Flipt namespace with all of its flags and segments",
            explanation="Applications evaluating flags in the namespace get errors or defaults "
            "for every flag.",
            alternative="flipt export --namespace NS first.",
            blocks=(
                "curl -X DELETE http://flipt:8080/api/v1/namespaces/mobile",
                "curl -X DELETE http://localhost:8080/api/v1/namespaces/staging?force=true",
            ),
            allows=(
                "curl http://flipt:8080/api/v1/namespaces/mobile",
                "curl -X DELETE http://flipt:8080/api/v1/namespaces/mobile/flags/new-ui",
            ),
        ),
        Rule(
            "flag-delete",
            severity="high",
            pattern=_DELETE + r"(?:namespaces/" + SEG + r"/)?flags/" + SEG + r"/?(?:[?\s]|$)",
            reason="Deleting a Flipt flag with its variants and rules",
            explanation="Evaluations of the flag fail or fall back to defaults in every "
            "client; its rules and distributions are gone.",
            alternative="Disable the flag first and remove code references.",
            blocks=(
                "curl -X DELETE http://flipt:8080/api/v1/namespaces/default/flags/new-ui",
                "curl -X DELETE http://localhost:8080/api/v1/flags/new-ui",
            ),
            allows=(
                "curl http://flipt:8080/api/v1/namespaces/default/flags/new-ui",
                "curl -X PUT http://flipt:8080/api/v1/namespaces/default/flags/new-ui",
            ),
        ),
        Rule(
            "targeting-delete",
            severity="medium",
            pattern=_DELETE + r"(?:namespaces/" + SEG + r"/)?(?:segments|flags)/" + SEG + r"/[^\s]",
            reason="Deleting Flipt segments, constraints, rules, rollouts or variants",
            explanation="Users are evaluated differently at once: deleted rules and segments "
            "stop matching, deleted variants disappear from distributions.",
            alternative="GET the object and keep it before deleting.",
            blocks=(
                "curl -X DELETE "
                "http://flipt:8080/api/v1/namespaces/default/segments/beta/constraints/c1",
                "curl -X DELETE http://flipt:8080/api/v1/namespaces/default/flags/new-ui/rules/r1",
            ),
            allows=(
                "curl http://flipt:8080/api/v1/namespaces/default/flags/new-ui/rules",
                "curl -X POST http://flipt:8080/api/v1/namespaces/default/segments",
            ),
        ),
    ),
)
