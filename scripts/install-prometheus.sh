#!/usr/bin/env bash
# Installs Prometheus (the server: scrapes, stores and answers PromQL) for the metrics tests, and prints the
# binary's path on stdout (everything else goes to stderr).
#   1. PROMETHEUS_PATH, when it names an executable, is used as is.
#   2. The cached binary $XDG_CACHE_HOME/skein/bin/prometheus (default ~/.cache/skein/bin/prometheus) is used when present.
#   3. Otherwise it is built from source with Go, through the Go module proxy, into that cache (several minutes;
#      needs `go`): `go install github.com/prometheus/prometheus/cmd/prometheus@v0.316.0`, or, when the module's
#      go.mod refuses `go install`, a `go build` of cmd/prometheus in a copy of the downloaded module
#      (scripts/lib/go-binary.sh, method `install`).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/go-binary.sh"
install_go_binary prometheus Prometheus PROMETHEUS_PATH github.com/prometheus/prometheus cmd/prometheus v0.316.0 install "several minutes"
