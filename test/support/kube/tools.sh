#!/usr/bin/env bash
# Builds kube-apiserver, kubectl and etcd from their Go modules, installs helm, and keeps the
# ServiceMonitor CRD, at the versions in versions.env, into a cache folder kept while those versions
# stay; prints that folder (binaries in bin/). Idempotent and quick when warm; one build at a time.
# `tools.sh node` also builds what a node and its control loops run (make e2e): kubelet,
# kube-controller-manager, kube-scheduler and kube-proxy.
set -euo pipefail
node_binaries=()
[ "${1:-}" != node ] || node_binaries=(kubelet kube-controller-manager kube-scheduler kube-proxy)
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=versions.env
source "$here/versions.env"

if [ "$(id -u)" = 0 ]; then root=/var/cache/switchboard; else root=${XDG_CACHE_HOME:-$HOME/.cache}/switchboard; fi
tools=${SWITCHBOARD_KUBE_TOOLS_CACHE:-$root/kube-tools}
dir=$tools/kubernetes-$KUBERNETES_VERSION-etcd-$ETCD_VERSION-helm-$HELM_VERSION-prometheus-operator-$PROMETHEUS_OPERATOR_VERSION
bin=$dir/bin
servicemonitors=$dir/crds/monitoring.coreos.com_servicemonitors.yaml

say() { echo "kube-tools: $*" >&2; }
ready() {
  [ -x "$bin/kube-apiserver" ] && [ -x "$bin/kubectl" ] && [ -x "$bin/etcd" ] && [ -x "$bin/helm" ] && [ -f "$servicemonitors" ] || return 1
  local name
  for name in "${node_binaries[@]}"; do [ -x "$bin/$name" ] || return 1; done
}

if ready; then echo "$dir"; exit 0; fi
mkdir -p "$tools"
exec 9>"$tools/build.lock"
flock 9
if ready; then echo "$dir"; exit 0; fi

# Go's own installer puts it here, off the PATH of a non-login shell.
command -v go >/dev/null || [ ! -x /usr/local/go/bin/go ] || PATH=/usr/local/go/bin:$PATH
command -v go >/dev/null || { say "needs Go (https://go.dev/dl/) to build the test cluster's binaries"; exit 1; }
# The Go caches live in the same folder, so removing it removes everything this script made.
export GOMODCACHE=$tools/go/mod GOCACHE=$tools/go/build
export GOTOOLCHAIN=local GOFLAGS="-modcacherw -buildvcs=false -trimpath" CGO_ENABLED=0
mkdir -p "$bin" "$dir/crds"
log=$dir/build.log
# Go's progress goes to the build log; a failure shows its end.
gobuild() { nice -n 19 go "$@" 2>>"$log"; }
trap 'say "failed; the end of $log:"; tail -n 40 "$log" >&2' ERR
started=$(date +%s)
say "building into $dir (once per versions.env; a first run takes a while, see docs/guides/testing.md)"

step() { # name, then the command that makes $bin/name.tmp
  local name=$1 t0; shift
  [ -x "$bin/$name" ] && return 0
  t0=$(date +%s)
  say "building $name"
  "$@"
  mv "$bin/$name.tmp" "$bin/$name"
  say "built $name in $(($(date +%s) - t0))s"
}

go_version() { go env GOVERSION | sed 's/^go//; s/^\([0-9]*\.[0-9]*\).*/\1/'; }

# A module of our own requiring k8s.io/kubernetes, its staging modules pinned to the matching
# v0.X.Y as the module's go.mod replaces them with ./staging paths (generated from that go.mod).
kubernetes_module() {
  local mod=$dir/kubernetes staging=0.${KUBERNETES_VERSION#1.}
  [ -f "$mod/go.sum" ] && return 0
  mkdir -p "$mod"
  local gomod
  gomod=$(cd "$mod" && gobuild mod download -json "k8s.io/kubernetes@v$KUBERNETES_VERSION" | sed -n 's/^\t"GoMod": "\(.*\)",$/\1/p')
  {
    echo "module switchboard.test/kube-tools"
    echo
    echo "go $(go_version)"
    echo
    echo "replace ("
    sed -n "s#^\t\(k8s.io/[a-z0-9-]*\) => ./staging/src/k8s.io/.*#\t\1 => \1 v$staging#p" "$gomod"
    echo ")"
  } > "$mod/go.mod"
  (cd "$mod" && gobuild get "k8s.io/kubernetes@v$KUBERNETES_VERSION" \
    "k8s.io/kubernetes/cmd/kube-apiserver@v$KUBERNETES_VERSION" "k8s.io/kubernetes/cmd/kubectl@v$KUBERNETES_VERSION")
}

# What `kubectl version` and the API server's /version say (as Kubernetes' own build sets them).
kubernetes_ldflags() {
  local minor=${KUBERNETES_VERSION#1.} flags=
  minor=${minor%%.*}
  for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    flags+=" -X $pkg.gitVersion=v$KUBERNETES_VERSION -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor"
    flags+=" -X $pkg.gitTreeState=clean"
  done
  echo "-s -w$flags"
}

build_kubernetes() { # a command of k8s.io/kubernetes/cmd
  kubernetes_module
  (cd "$dir/kubernetes" && gobuild get "k8s.io/kubernetes/cmd/$1@v$KUBERNETES_VERSION" && gobuild build -ldflags "$(kubernetes_ldflags)" -o "$bin/$1.tmp" "k8s.io/kubernetes/cmd/$1")
}

# etcd's server module names its sibling modules by relative replaces, so it is built from a module
# of our own too; its main package is the module's root.
build_etcd() {
  local mod=$dir/etcd
  mkdir -p "$mod"
  [ -f "$mod/go.mod" ] || printf 'module switchboard.test/etcd\n\ngo %s\n' "$(go_version)" > "$mod/go.mod"
  (cd "$mod" && gobuild get "go.etcd.io/etcd/server/v3@v$ETCD_VERSION" \
    && gobuild build -ldflags "-s -w" -o "$bin/etcd.tmp" go.etcd.io/etcd/server/v3)
}

build_helm() {
  local major=${HELM_VERSION%%.*}
  GOBIN=$dir/helm-install gobuild install -ldflags "-s -w -X helm.sh/helm/v$major/internal/version.version=v$HELM_VERSION" \
    "helm.sh/helm/v$major/cmd/helm@v$HELM_VERSION"
  mv "$dir/helm-install/helm" "$bin/helm.tmp"
  rmdir "$dir/helm-install"
}

# The CRD as prometheus-operator publishes it, from its Go module (the proxy serves the whole repository).
fetch_servicemonitors() {
  local source
  source=$(cd "$dir" && gobuild mod download -json "github.com/prometheus-operator/prometheus-operator@v$PROMETHEUS_OPERATOR_VERSION" \
    | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
  cp "$source/example/prometheus-operator-crd/monitoring.coreos.com_servicemonitors.yaml" "$servicemonitors"
}

[ -f "$servicemonitors" ] || fetch_servicemonitors
step etcd build_etcd
step helm build_helm
step kube-apiserver build_kubernetes kube-apiserver
step kubectl build_kubernetes kubectl
for name in "${node_binaries[@]}"; do step "$name" build_kubernetes "$name"; done
say "ready in $(($(date +%s) - started))s: $dir"
echo "$dir"
