"""Splunk: removing indexes, cleaning event data and deleting events."""

from dcg.model import Pack, Rule
from dcg.packs._http import SEG, sends

_SPLUNK = r"^splunk\s"

PACK = Pack(
    "monitoring.splunk",
    description="Splunk: index removal, clean eventdata/all, `| delete` searches, REST deletions",
    rules=(
        Rule(
            "clean",
            severity="critical",
            pattern=_SPLUNK + r"clean\s(?:eventdata|all|globaldata|kvstore|userdata)\b",
            reason="splunk clean erases indexed data, users or the KV store",
            explanation="`clean eventdata` deletes the indexed events of every index (or the "
            "one given with -index); `clean all` wipes events, users and KV store alike. "
            "Nothing is kept unless the buckets were backed up.",
            alternative="Let retention (frozenTimePeriodInSecs) age data out, or back up the "
            "index buckets first.",
            blocks=("splunk clean eventdata -index main -f", "splunk clean all"),
            allows=("splunk list index", "splunk show config indexes"),
        ),
        Rule(
            "remove-index",
            severity="high",
            pattern=r"(?:"
            + _SPLUNK
            + r"remove\sindex\b|"
            + sends("DELETE")
            + r"/services/data/indexes/"
            + SEG
            + ")",
            reason="Removing a Splunk index deletes it with all of its events",
            explanation="The index definition and its buckets are deleted; searches, "
            "dashboards and alerts that read it return nothing.",
            alternative="Disable the index (splunk disable index NAME) or lower its retention.",
            blocks=(
                "splunk remove index web_logs",
                "curl -k -u admin:pw -X DELETE https://splunk:8089/services/data/indexes/web_logs",
            ),
            allows=("splunk list index", "splunk disable index web_logs"),
        ),
        Rule(
            "search-delete",
            severity="high",
            pattern=_SPLUNK + r"search\s.*\|\s?delete\b",
            reason="A search piped to `| delete` makes the matching events unsearchable for good",
            explanation="The delete command marks every event the search returns as deleted; "
            "they can never be searched again, even by admins.",
            alternative="Run the search without `| delete` and check the result count first.",
            blocks=(
                "splunk search 'index=main sourcetype=test | delete'",
                "splunk search 'index=x|delete' -auth a:b",
            ),
            allows=(
                "splunk search 'index=main sourcetype=test | stats count'",
                "splunk search 'index=main delete'",
            ),
        ),
        Rule(
            "rest-delete",
            severity="medium",
            pattern=sends("DELETE") + r":8089/",
            reason="DELETE on the Splunk management API (saved searches, users, apps, inputs)",
            explanation="Removes the named object; saved searches and alerts stop running, "
            "users lose access, inputs stop collecting.",
            alternative="GET the object with output_mode=json and keep it.",
            blocks=(
                "curl -k -u admin:pw -X DELETE "
                "https://splunk:8089/servicesNS/nobody/search/saved/searches/x",
                "curl -k -X DELETE https://localhost:8089/services/authentication/users/bob",
            ),
            allows=(
                "curl -k -u admin:pw https://splunk:8089/services/authentication/users",
                "curl -k -X POST https://splunk:8089/services/search/jobs",
            ),
        ),
    ),
)
