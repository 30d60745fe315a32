#!/usr/bin/env bash
# Build the docs site and publish it to the gh-pages branch.
set -euo pipefail

OUT=docs/.vitepress/out
rm -rf "$OUT"
pnpm run docs:build

cd "$OUT"
git init -q
git checkout -q -b gh-pages
git add -A
git commit -qm "docs: deploy $(date -u +%F)"
git push -f git@github.com:acme/acme.git gh-pages
cd -
