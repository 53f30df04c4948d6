#!/usr/bin/env bash
# Installs Jaeger (all-in-one: OTLP receiver, in-memory storage, query API and UI) for the tracing tests, and prints
# the binary's path on stdout (everything else goes to stderr).
#   1. JAEGER_PATH, when it names an executable, is used as is.
#   2. The cached binary $XDG_CACHE_HOME/skein/bin/jaeger (default ~/.cache/skein/bin/jaeger) is used when present.
#   3. Otherwise it is built from source with Go, through the Go module proxy, into that cache (about 5 minutes on
#      2 cores; needs `go`): a scratch module records github.com/jaegertracing/jaeger@v1.76.0 as a tool dependency,
#      and `go build` compiles its cmd/jaeger.
set -euo pipefail
VERSION=v1.76.0
BIN="${XDG_CACHE_HOME:-$HOME/.cache}/skein/bin"
if [ -n "${JAEGER_PATH:-}" ] && [ -x "$JAEGER_PATH" ]; then echo "$JAEGER_PATH"; exit 0; fi
if [ -x "$BIN/jaeger" ]; then echo "$BIN/jaeger"; exit 0; fi
command -v go >/dev/null || { echo "install-jaeger: Go is needed to build Jaeger $VERSION (none on PATH)" >&2; exit 1; }
mkdir -p "$BIN"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "install-jaeger: building github.com/jaegertracing/jaeger/cmd/jaeger@$VERSION into $BIN (one time, a few minutes)" >&2
(
  cd "$work"
  go mod init skein-jaeger-build >&2
  go get -tool "github.com/jaegertracing/jaeger/cmd/jaeger@$VERSION" >&2
  nice -n 10 go build -o "$BIN/jaeger.tmp" github.com/jaegertracing/jaeger/cmd/jaeger >&2
)
mv "$BIN/jaeger.tmp" "$BIN/jaeger"
echo "install-jaeger: installed $BIN/jaeger" >&2
echo "$BIN/jaeger"
