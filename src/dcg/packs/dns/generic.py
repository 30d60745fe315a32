"""Name servers: dynamic updates (nsupdate) and zone deletion with rndc, knotc and pdnsutil."""

from dcg.model import Pack, Rule

PACK = Pack(
    "dns.generic",
    description="nsupdate, BIND rndc, Knot knotc, PowerDNS pdnsutil: zone and record deletion",
    rules=(
        Rule(
            "zone-delete",
            severity="critical",
            pattern=r"^(?:rndc\s(?:.*\s)?delzone|pdnsutil\s(?:delete|clear)-zone"
            r"|knotc\s(?:.*\s)?zone-purge)\b",
            reason="Deleting a zone from the name server (rndc delzone, pdnsutil delete-zone)",
            explanation="The server stops answering for every name of the zone; with "
            "`rndc delzone -clean` or `knotc zone-purge` its zone file and journal are "
            "removed, and pdnsutil deletes the zone's records from the database.",
            alternative="Back up the zone first (rndc dumpdb, pdnsutil list-zone ZONE > "
            "zone.txt) and remove the delegation before deleting.",
            blocks=("rndc delzone -clean example.com", "pdnsutil delete-zone example.com"),
            allows=("rndc zonestatus example.com", "pdnsutil list-zone example.com"),
        ),
        Rule(
            "dnssec-keys",
            severity="high",
            pattern=r"^pdnsutil\s(?:remove-zone-key|deactivate-zone-key|disable-dnssec|unset-presigned)\b",
            reason="Removing or deactivating DNSSEC keys of a signed zone",
            explanation="While the parent's DS record still names the key, validating "
            "resolvers reject every answer of the zone (SERVFAIL).",
            alternative="Follow a key rollover: publish the new key and update the DS record "
            "before removing the old key.",
            blocks=(
                "pdnsutil remove-zone-key example.com 3",
                "pdnsutil disable-dnssec example.com",
            ),
            allows=("pdnsutil show-zone example.com", "pdnsutil check-zone example.com"),
        ),
        Rule(
            "record-delete",
            severity="high",
            pattern=r"^(?:pdnsutil\sdelete-rrset|knotc\s(?:.*\s)?zone-unset)\b",
            reason="Deleting records from a zone on the name server",
            explanation="The names stop resolving as soon as the change is served; "
            "resolvers cache the negative answer.",
            alternative="List the records first (pdnsutil list-zone, knotc zone-read) and "
            "keep the output.",
            blocks=("pdnsutil delete-rrset example.com www A", "knotc zone-unset example.com www"),
            allows=("pdnsutil list-zone example.com", "knotc zone-read example.com www"),
        ),
        Rule(
            "server-stop",
            severity="high",
            pattern=r"^(?:rndc\s(?:.*\s)?(?:stop|halt)|knotc\s(?:.*\s)?stop)\b",
            reason="Stopping the name server",
            explanation="Every zone it serves stops answering on this server; if it is the "
            "only authoritative server, the domains stop resolving once caches expire.",
            alternative="Reload (rndc reload) instead of stopping, or take the server out of "
            "the NS set first.",
            blocks=("rndc stop", "knotc -s /run/knot/knot.sock stop"),
            allows=("rndc status", "rndc reload example.com"),
        ),
        Rule(
            "nsupdate",
            severity="medium",
            pattern=r"^nsupdate\b(?!\s(?:-V|-h|--help)(?:\s|$))",
            reason="nsupdate sends dynamic updates that add or delete live DNS records",
            explanation="The update commands (often `update delete …`) come from standard input "
            "or a file and are applied to the primary server at once; deletions take names "
            "offline.",
            alternative="Review the update file and query the current records (dig) first.",
            blocks=("nsupdate -k /etc/bind/ddns.key changes.txt", "nsupdate -l"),
            allows=("nsupdate -V", "dig +short www.example.com"),
        ),
    ),
)
