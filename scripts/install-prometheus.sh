#!/usr/bin/env bash
# Installs Prometheus (the server: scrapes, stores and answers PromQL) for the metrics tests, and prints the
# binary's path on stdout (everything else goes to stderr).
#   1. PROMETHEUS_PATH, when it names an executable, is used as is.
#   2. The cached binary $XDG_CACHE_HOME/skein/bin/prometheus (default ~/.cache/skein/bin/prometheus) is used when present.
#   3. Otherwise it is built from source with Go, through the Go module proxy, into that cache (several minutes;
#      needs `go`): `go install github.com/prometheus/prometheus/cmd/prometheus@v0.316.0`, or, when the module's
#      go.mod refuses `go install`, a `go build` of cmd/prometheus in a copy of the downloaded module.
set -euo pipefail
VERSION=v0.316.0
BIN="${XDG_CACHE_HOME:-$HOME/.cache}/skein/bin"
if [ -n "${PROMETHEUS_PATH:-}" ] && [ -x "$PROMETHEUS_PATH" ]; then echo "$PROMETHEUS_PATH"; exit 0; fi
if [ -x "$BIN/prometheus" ]; then echo "$BIN/prometheus"; exit 0; fi
command -v go >/dev/null || { echo "install-prometheus: Go is needed to build Prometheus $VERSION (none on PATH)" >&2; exit 1; }
mkdir -p "$BIN"
work="$(mktemp -d)"
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
echo "install-prometheus: building github.com/prometheus/prometheus/cmd/prometheus@$VERSION into $BIN (one time, several minutes)" >&2
if GOBIN="$work/bin" nice -n 10 go install "github.com/prometheus/prometheus/cmd/prometheus@$VERSION" >&2; then
  mv "$work/bin/prometheus" "$BIN/prometheus"
else
  echo "install-prometheus: go install refused the module; building from a copy of its source" >&2
  dir="$(go mod download -json "github.com/prometheus/prometheus@$VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
  cp -r "$dir" "$work/src"
  chmod -R u+w "$work/src"
  (cd "$work/src" && nice -n 10 go build -o "$BIN/prometheus.tmp" ./cmd/prometheus >&2)
  mv "$BIN/prometheus.tmp" "$BIN/prometheus"
fi
echo "install-prometheus: installed $BIN/prometheus" >&2
echo "$BIN/prometheus"
