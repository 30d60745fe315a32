#!/usr/bin/env bash
# Roll production back to the previous release tag and force the deploy branch there.
set -euo pipefail
prev=$(git describe --tags --abbrev=0 HEAD^)
git checkout deploy
git reset --hard "$prev"
git push --force origin deploy
kubectl rollout undo deployment/server -n production
