#!/usr/bin/env bash
# Throw away local changes and get back to a clean checkout of main.
# Destroys uncommitted work: asks first.
set -e
read -r -p "Discard all local changes? [y/N] " answer
[ "$answer" = y ] || exit 1
git fetch origin
git checkout main
git reset --hard origin/main
git clean -fdx
