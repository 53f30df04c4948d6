# Sourced by the scripts/install-<tool>.sh scripts (bash): finds or builds one Go program from the Go module proxy
# into the binary cache $XDG_CACHE_HOME/skein/bin (default ~/.cache/skein/bin), and prints the binary's path on
# stdout (everything else goes to stderr, each line prefixed with "install-<name>:").
#
#   install_go_binary NAME LABEL ENV_VAR MODULE COMMAND VERSION METHOD DURATION
#     NAME      the binary's file name in the cache (jaeger)
#     LABEL     the program's name in messages (Jaeger)
#     ENV_VAR   the variable that may name a binary to use as is (JAEGER_PATH)
#     MODULE    the Go module (github.com/jaegertracing/jaeger)
#     COMMAND   the command's folder in the module (cmd/jaeger)
#     VERSION   the module's version (v1.76.0)
#     METHOD    how to build it:
#               tool    a scratch module records MODULE/COMMAND@VERSION as a tool dependency, and `go build`
#                       compiles it;
#               install `go install MODULE/COMMAND@VERSION`, or, when the module's go.mod refuses `go install` (replace
#                       directives), a `go build` of the command in a writable copy of the downloaded module
#     DURATION  how long a build takes, for the message ("a few minutes")
#
# In order: $ENV_VAR when it names an executable; the cached binary; otherwise a build (needs `go`), written to
# "<name>.tmp" and renamed, so an interrupted build never leaves a broken binary in the cache.

install_go_binary() {
  local name="$1" label="$2" env_var="$3" module="$4" command="$5" version="$6" method="$7" duration="$8"
  local package="$module/$command"
  local bin="${XDG_CACHE_HOME:-$HOME/.cache}/skein/bin"
  local given="${!env_var:-}"
  if [ -n "$given" ] && [ -x "$given" ]; then echo "$given"; return 0; fi
  if [ -x "$bin/$name" ]; then echo "$bin/$name"; return 0; fi
  command -v go >/dev/null || { echo "install-$name: Go is needed to build $label $version (none on PATH)" >&2; return 1; }
  mkdir -p "$bin"
  local work
  work="$(mktemp -d)"
  # The module cache's files are read-only: make the copies writable before removing them.
  trap "chmod -R u+w '$work' 2>/dev/null; rm -rf '$work'" EXIT
  echo "install-$name: building $package@$version into $bin (one time, $duration)" >&2
  case "$method" in
    tool)
      (
        cd "$work"
        go mod init "skein-$name-build" >&2
        go get -tool "$package@$version" >&2
        nice -n 10 go build -o "$bin/$name.tmp" "$package" >&2
      )
      ;;
    install)
      if GOBIN="$work/bin" nice -n 10 go install "$package@$version" >&2; then
        mv "$work/bin/$name" "$bin/$name.tmp"
      else
        echo "install-$name: go install refused the module; building from a copy of its source" >&2
        local dir
        dir="$(go mod download -json "$module@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
        [ -n "$dir" ] || { echo "install-$name: go mod download gave no folder for $module@$version" >&2; return 1; }
        cp -r "$dir" "$work/src"
        chmod -R u+w "$work/src"
        (cd "$work/src" && nice -n 10 go build -o "$bin/$name.tmp" "./$command" >&2)
      fi
      ;;
    *)
      echo "install-$name: unknown build method $method" >&2
      return 1
      ;;
  esac
  mv "$bin/$name.tmp" "$bin/$name"
  echo "install-$name: installed $bin/$name" >&2
  echo "$bin/$name"
}
