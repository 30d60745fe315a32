#!/bin/sh
# Usage: scripts/bump.sh 1.5.0
set -e
version="$1"
[ -n "$version" ] || { echo "usage: $0 VERSION" >&2; exit 1; }
pnpm -r exec npm version "$version" --no-git-tag-version
git add -A
git commit -m "release: v$version"
git tag "v$version"
echo "now run: git push --follow-tags"
