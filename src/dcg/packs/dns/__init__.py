"""DNS: Route 53, Cloudflare and generic name-server tools (nsupdate, rndc, pdnsutil, knotc)."""
