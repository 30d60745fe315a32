"""Cloudflare DNS: deleting zones and records, cache purges and tunnels (flarectl, API)."""

from dcg.model import Pack, Rule
from dcg.packs._http import ANY, END, SEG, sends

_API = r"api\.cloudflare\.com/client/v4/zones/" + SEG
_FLARE = r"^flarectl\s(?:-[^\s]*\s(?:[^\s-][^\s]*\s)?)*"

PACK = Pack(
    "dns.cloudflare",
    description="Cloudflare: zone and DNS record deletion or change, cache purge, tunnel deletion",
    rules=(
        Rule(
            "zone-delete",
            severity="critical",
            pattern=r"(?:"
            + _FLARE
            + r"zone\s(?:delete|rm)\b|"
            + sends("DELETE")
            + _API
            + END
            + ")",
            reason="Deleting a Cloudflare zone removes the domain with all its DNS and settings",
            explanation="Every DNS record, page rule, firewall rule and certificate of the "
            "zone is deleted; names stop resolving through Cloudflare. Re-adding the zone "
            "starts from scratch and may assign different name servers.",
            alternative="Export the zone first (GET /zones/<id>/dns_records/export) and pause "
            "Cloudflare on the zone instead of deleting it.",
            blocks=(
                "flarectl zone delete --zone example.com",
                "curl -X DELETE "
                "https://api.cloudflare.com/client/v4/zones/023e105f4ecef8ad9ca31a8372d0c353",
            ),
            allows=(
                "flarectl zone info --zone example.com",
                "curl https://api.cloudflare.com/client/v4/zones/023e105f4ecef8ad9ca31a8372d0c353",
            ),
        ),
        Rule(
            "record-delete",
            severity="high",
            pattern=r"(?:"
            + _FLARE
            + r"dns\s(?:delete|rm)\b|"
            + sends("DELETE")
            + _API
            + r"/dns_records/"
            + SEG
            + END
            + ")",
            reason="Deleting a Cloudflare DNS record",
            explanation="The name stops resolving (NXDOMAIN is cached by resolvers for the "
            "zone's negative TTL), which takes down whatever service it pointed at.",
            alternative="Export the record first (flarectl dns list), or change its content "
            "instead of deleting it.",
            blocks=(
                "flarectl dns delete --zone example.com --id 372e67954025e0ba6aaa6d586b9e0b59",
                "curl -X DELETE https://api.cloudflare.com/client/v4/zones/z1/dns_records/r1",
            ),
            allows=(
                "flarectl dns list --zone example.com",
                "curl https://api.cloudflare.com/client/v4/zones/z1/dns_records",
            ),
        ),
        Rule(
            "record-change",
            severity="medium",
            pattern=r"(?:"
            + _FLARE
            + r"dns\s(?:update|create-or-update)\b|"
            + sends("PUT|PATCH")
            + _API
            + r"/dns_records/"
            + SEG
            + END
            + ")",
            reason="Changing an existing Cloudflare DNS record",
            explanation="A wrong address or proxy setting redirects or breaks the traffic for "
            "that name at once, and resolvers cache the bad answer for its TTL.",
            alternative="Note the current value (flarectl dns list) so it can be put back.",
            blocks=(
                "flarectl dns update --zone example.com --id r1 --content 10.0.0.2",
                "curl -X PATCH https://api.cloudflare.com/client/v4/zones/z1/dns_records/r1 "
                "-d '{}'",
            ),
            allows=(
                "flarectl dns create --zone example.com --name new --type A --content 10.0.0.3",
                "curl https://api.cloudflare.com/client/v4/zones/z1/dns_records/r1",
            ),
        ),
        Rule(
            "purge-cache",
            severity="medium",
            pattern=r"(?:" + _FLARE + r"zone\spurge\b|" + ANY + _API + r"/purge_cache" + END + ")",
            reason="Purging the Cloudflare cache sends all traffic to the origin",
            explanation="With everything purged, every request misses the cache until it "
            "refills; an origin sized for cached traffic can be overwhelmed.",
            alternative="Purge single URLs, tags or prefixes instead of everything.",
            blocks=(
                "flarectl zone purge --zone example.com --everything",
                "curl -X POST https://api.cloudflare.com/client/v4/zones/z1/purge_cache -d '{}'",
            ),
            allows=(
                "flarectl zone list",
                "curl https://api.cloudflare.com/client/v4/zones/z1/settings",
            ),
        ),
        Rule(
            "tunnel-delete",
            severity="medium",
            pattern=r"^cloudflared\s(?:-[^\s]*\s(?:[^\s-][^\s]*\s)?)*tunnel\s(?:.*\s)?(?:delete|cleanup)\b",
            reason="Deleting a Cloudflare Tunnel cuts off the services routed through it",
            explanation="Hostnames routed to the tunnel stop reaching their origins; the "
            "tunnel's credentials are invalidated and a new tunnel needs new DNS routes.",
            alternative="cloudflared tunnel info first; stop the connector instead.",
            blocks=(
                "cloudflared tunnel delete my-tunnel",
                "cloudflared tunnel --config c.yml delete -f old",
            ),
            allows=("cloudflared tunnel list", "cloudflared tunnel info my-tunnel"),
        ),
    ),
)
