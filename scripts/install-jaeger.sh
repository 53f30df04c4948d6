#!/usr/bin/env bash
# Installs Jaeger (all-in-one: OTLP receiver, in-memory storage, query API and UI) for the tracing tests, and prints
# the binary's path on stdout (everything else goes to stderr).
#   1. JAEGER_PATH, when it names an executable, is used as is.
#   2. The cached binary $XDG_CACHE_HOME/skein/bin/jaeger (default ~/.cache/skein/bin/jaeger) is used when present.
#   3. Otherwise it is built from source with Go, through the Go module proxy, into that cache (about 5 minutes on
#      2 cores; needs `go`): a scratch module records github.com/jaegertracing/jaeger@v1.76.0 as a tool dependency,
#      and `go build` compiles its cmd/jaeger (scripts/lib/go-binary.sh, method `tool`).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/go-binary.sh"
install_go_binary jaeger Jaeger JAEGER_PATH github.com/jaegertracing/jaeger cmd/jaeger v1.76.0 tool "a few minutes"
