#!/usr/bin/env bash
# What the suite needs on a Debian machine, idempotently: installs the missing Debian packages
# (prometheus, postgresql, redis-server, chromium, faketime, poppler-utils, jq, python3-venv), unless DATABASE_URL / REDIS_URL are set starts
# a Postgres and a Redis of the suite's own on loopback (reused while up), and unless
# SWITCHBOARD_KUBE_TOOLS is set builds or reuses the test cluster's kube-apiserver, etcd, kubectl
# and helm (kube/tools.sh). With SWITCHBOARD_E2E=1 (make e2e) also what a node runs: containerd,
# runc, the CNI plugins, iptables, buildah and mmdebstrap from Debian, and the kubelet,
# kube-controller-manager, kube-scheduler and kube-proxy (tools.sh node).
# `setup.sh CMD…` runs CMD with those settings; bare, it prints exports.
set -euo pipefail

if [ "$(id -u)" = 0 ]; then
  # Not under /root: the Postgres cluster runs as the `postgres` user, who cannot enter it.
  CACHE=/var/cache/switchboard
else
  CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/switchboard
fi
PG_PORT=55432
REDIS_PORT=56379

say() { echo "setup: $*" >&2; }

packages=()
need() { packages+=("$@"); }

command -v promtool >/dev/null && command -v prometheus >/dev/null || need prometheus
pg_bin() { find /usr/lib/postgresql -path '*/bin/initdb' 2>/dev/null | sort -V | tail -n 1 | xargs -r dirname; }
if [ -z "${DATABASE_URL:-}" ] && [ -z "$(pg_bin)" ]; then need postgresql; fi
if [ -z "${REDIS_URL:-}" ] && ! command -v redis-server >/dev/null; then need redis-server; fi
# The browser tests' headless Chromium (test/support/browser.ts), driven by playwright-core.
[ -x "${SWITCHBOARD_CHROMIUM:-/usr/bin/chromium}" ] || need chromium
# Invoice PDFs read back as text (test/cmd/admin-invoices.test.ts, test/console/billing.test.ts).
command -v pdftotext >/dev/null || need poppler-utils
# A replica with its wall clock moved (test/controllers/clock-jump.test.ts), through LD_PRELOAD.
compgen -G '/usr/lib/*/faketime/libfaketime.so.1' >/dev/null || need faketime
# The documentation's curl samples, and jq to read ids out of answers (test/docs/samples.test.ts).
command -v curl >/dev/null || need curl
command -v jq >/dev/null || need jq
# The Python SDK's venv (test/support/sdk-python.ts): python3 with venv and ensurepip.
python3 -c 'import ensurepip, venv' 2>/dev/null || need python3-venv
if [ -n "${SWITCHBOARD_E2E:-}" ]; then
  for tool in containerd runc buildah mmdebstrap iptables; do command -v "$tool" >/dev/null || need "$tool"; done
  [ -x /usr/lib/cni/bridge ] || need containernetworking-plugins
  command -v conntrack >/dev/null || need conntrack
  # Its Postgres and Redis stand outside the cluster, whatever the suite's own are.
  [ -n "$(pg_bin)" ] || need postgresql
  command -v redis-server >/dev/null || need redis-server
fi

if [ ${#packages[@]} -gt 0 ]; then
  say "installing ${packages[*]} (Debian packages; once)"
  sudo=; [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
fi

mkdir -p "$CACHE"
# One setup at a time: parallel runs would start the same servers twice.
exec 9>"$CACHE/setup.lock"
flock 9

if [ -z "${DATABASE_URL:-}" ]; then
  bin=$(pg_bin)
  data=$CACHE/postgres
  # From /, which every user may enter; the servers started must not hold the lock (fd 9).
  as_postgres() { if [ "$(id -u)" = 0 ]; then (cd / && runuser -u postgres -- "$@" 9>&-); else "$@" 9>&-; fi; }
  if ! "$bin/pg_isready" -q -h 127.0.0.1 -p "$PG_PORT"; then
    if [ ! -f "$data/PG_VERSION" ]; then
      say "creating the tests' Postgres cluster in $data"
      mkdir -p "$data"
      [ "$(id -u)" != 0 ] || chown postgres: "$data"
      as_postgres "$bin/initdb" -D "$data" -U postgres --auth=trust -E UTF8 >/dev/null
    fi
    say "starting Postgres on 127.0.0.1:$PG_PORT (log: $data/server.log)"
    as_postgres "$bin/pg_ctl" start -w -D "$data" -l "$data/server.log" \
      -o "-p $PG_PORT -c listen_addresses=127.0.0.1 -c unix_socket_directories='' -c fsync=off" >/dev/null
  fi
  DATABASE_URL=postgres://postgres@127.0.0.1:$PG_PORT/postgres
fi

if [ -z "${REDIS_URL:-}" ]; then
  if ! redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping >/dev/null 2>&1; then
    say "starting Redis on 127.0.0.1:$REDIS_PORT (log: $CACHE/redis.log)"
    redis-server --daemonize yes --bind 127.0.0.1 --port "$REDIS_PORT" --save '' --appendonly no \
      --dir "$CACHE" --logfile "$CACHE/redis.log" --pidfile "$CACHE/redis.pid" 9>&-
    for _ in $(seq 1 50); do
      redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping >/dev/null 2>&1 && break
      sleep 0.2
    done
    redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping >/dev/null 2>&1 || { say "Redis did not start; see $CACHE/redis.log"; exit 1; }
  fi
  REDIS_URL=redis://127.0.0.1:$REDIS_PORT
fi

exec 9>&-
if [ -z "${SWITCHBOARD_KUBE_TOOLS:-}" ]; then
  SWITCHBOARD_KUBE_TOOLS=$("$(dirname "$0")/kube/tools.sh" ${SWITCHBOARD_E2E:+node})
fi
export DATABASE_URL REDIS_URL SWITCHBOARD_KUBE_TOOLS
if [ $# -gt 0 ]; then exec "$@"; fi
echo "export DATABASE_URL=$DATABASE_URL REDIS_URL=$REDIS_URL SWITCHBOARD_KUBE_TOOLS=$SWITCHBOARD_KUBE_TOOLS"
