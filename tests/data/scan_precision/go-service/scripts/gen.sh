#!/usr/bin/env bash
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf internal/gen
mkdir -p internal/gen
protoc --go_out=internal/gen --go-grpc_out=internal/gen proto/*.proto
gofmt -w internal/gen
