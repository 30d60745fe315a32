#!/bin/sh
# The cache directory is recreated when it is missing.
set -e
CACHE_DIR=.cache-test
mkdir -p "$CACHE_DIR/objects"
pyacme --cache "$CACHE_DIR" warm
rm -rf "$CACHE_DIR/objects"
pyacme --cache "$CACHE_DIR" warm
test -d "$CACHE_DIR/objects"
rm -rf "$CACHE_DIR"
