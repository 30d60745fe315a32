#!/usr/bin/env bash
# CLI snapshot tests: each case runs tally in a fresh directory under target/.
set -euo pipefail
root=target/cli-tests
for case in tests/cli/cases/*.sh; do
    name=$(basename "$case" .sh)
    dir="$root/$name"
    mkdir -p "$dir"
    (cd "$dir" && bash "../../../$case") > "$dir/out.txt"
    diff -u "tests/cli/snapshots/$name.txt" "$dir/out.txt"
    rm -rf "$dir"
done
rm -rf "$root"
