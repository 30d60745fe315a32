#!/usr/bin/env bash
# End-to-end test: start the server against a throwaway database.
set -euo pipefail
DATA_DIR=$(mktemp -d -t server-e2e.XXXXXX)
cleanup() {
  docker rm -f server-e2e-db >/dev/null 2>&1 || true
  rm -rf "$DATA_DIR"
}
trap cleanup EXIT
docker run -d --name server-e2e-db -v "$DATA_DIR:/var/lib/postgresql/data" postgres:16
go test -tags e2e ./e2e/...
