#!/usr/bin/env bash
# Fetches an official Node.js build from the npm registry (the `node-<os>-<arch>` packages carry the
# same binaries as nodejs.org) into a cache folder, and prints its bin folder. It needs only a working
# npm, so a machine whose own Node is too old for Buckeye (20) can still get 22 or 24 without root:
#
#   export PATH="$(bash scripts/fetch-node.sh 24):$PATH"   # node and npm now run on Node 24
#
# The cache is $BUCKEYE_NODE_CACHE (default ~/.cache/buckeye/node), one folder per major version;
# a second call reuses it. Usage: fetch-node.sh <major>
set -euo pipefail

major="${1:?usage: fetch-node.sh <major version, e.g. 24>}"
case "$(uname -s)" in
  Linux) os=linux ;;
  Darwin) os=darwin ;;
  *) echo "fetch-node.sh: no registry build for $(uname -s); install Node $major from https://nodejs.org" >&2; exit 1 ;;
esac
case "$(uname -m)" in
  x86_64 | amd64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "fetch-node.sh: no registry build for $(uname -m); install Node $major from https://nodejs.org" >&2; exit 1 ;;
esac

cache="${BUCKEYE_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/buckeye/node}"
target="$cache/$major"
if ! "$target/bin/node" --version 2>/dev/null | grep -q "^v$major\."; then
  mkdir -p "$cache"
  download="$(mktemp -d "$cache/download.XXXXXX")"
  trap 'rm -rf "$download"' EXIT
  # Packed from inside the download folder, so no project .npmrc (engine-strict) applies to npm itself.
  tarball="$(cd "$download" && npm pack --silent "node-$os-$arch@$major" | tail -n 1)"
  tar -xzf "$download/$tarball" -C "$download"
  rm -rf "$target"
  mv "$download/package" "$target"
fi
echo "$target/bin"
