#!/usr/bin/env bash
# Installs SeaweedFS's `weed` binary, the S3-compatible object storage the trace tests run against, and prints its
# path on the last line of stdout (everything else goes to stderr).
# Looks, in order, for: $SEAWEEDFS_WEED_PATH, the cache ($HOME/.cache/skein/bin/weed), and otherwise builds it from
# the Go module proxy: `go install` refuses SeaweedFS (its go.mod has replace directives), so the module is
# downloaded with `go mod download`, copied to a writable folder and built there with `go build ./weed`
# (about 7 minutes on 2 cores), then cached for the next run.
set -euo pipefail

VERSION=v0.0.0-20261109003541-7506e5f91cd6   # github.com/seaweedfs/seaweedfs, as the tests expect it
CACHE="${SKEIN_BIN_CACHE:-$HOME/.cache/skein/bin}"
say() { echo "install-seaweedfs: $*" >&2; }

if [ -n "${SEAWEEDFS_WEED_PATH:-}" ] && [ -x "$SEAWEEDFS_WEED_PATH" ]; then
  say "using SEAWEEDFS_WEED_PATH ($SEAWEEDFS_WEED_PATH)"
  echo "$SEAWEEDFS_WEED_PATH"
  exit 0
fi
if [ -x "$CACHE/weed" ]; then
  say "using the cached binary $CACHE/weed"
  echo "$CACHE/weed"
  exit 0
fi
if ! command -v go >/dev/null; then
  say "no cached weed binary and no Go toolchain to build one: install Go (https://go.dev/dl) or set SEAWEEDFS_WEED_PATH"
  exit 1
fi
say "building weed from github.com/seaweedfs/seaweedfs@$VERSION (Go module proxy; about 7 minutes on 2 cores)"
MOD_DIR="$(go mod download -json "github.com/seaweedfs/seaweedfs@$VERSION" | node -e 'let s="";process.stdin.on("data",(d)=>s+=d).on("end",()=>console.log(JSON.parse(s).Dir))')"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
say "copying the module from $MOD_DIR to $WORK (the module cache is read-only)"
cp -r "$MOD_DIR" "$WORK/seaweedfs"
chmod -R u+w "$WORK/seaweedfs"
mkdir -p "$CACHE"
(cd "$WORK/seaweedfs" && go build -o "$CACHE/weed.tmp" ./weed)
mv "$CACHE/weed.tmp" "$CACHE/weed"
say "installed $CACHE/weed ($("$CACHE/weed" version 2>/dev/null | head -1))"
echo "$CACHE/weed"
