#!/bin/sh
# tally installer: curl -fsSL https://tally.example/install.sh | sh
set -eu
BIN_DIR="${TALLY_BIN_DIR:-$HOME/.local/bin}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ "${1:-}" = "--uninstall" ]; then
    rm -f "$BIN_DIR/tally"
    rm -rf "$HOME/.tally"
    exit 0
fi

curl -fsSL "https://tally.example/releases/latest/tally-$(uname -s)-$(uname -m).tar.gz" -o "$tmp/tally.tgz"
tar -xzf "$tmp/tally.tgz" -C "$tmp"
mkdir -p "$BIN_DIR"
install -m 755 "$tmp/tally" "$BIN_DIR/tally"
echo "installed tally to $BIN_DIR"
