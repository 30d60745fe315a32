#!/usr/bin/env bash
# Integration tests: run the CLI against a scratch project and compare its output.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fixture="$here/fixtures/out"
mkdir -p "$fixture"

cp -r "$here/fixtures/sample" "$work/project"
(cd "$work/project" && pyacme init --force && pyacme build)

diff -ru "$here/expected" "$work/project/out" > "$fixture/diff.txt" || {
    cat "$fixture/diff.txt"
    exit 1
}

git clone -q --depth 1 https://github.com/acme/sample-data "$work/data"
pyacme check "$work/data"
rm -rf "$work/data"

rm -rf "$fixture"
echo "integration: ok"
