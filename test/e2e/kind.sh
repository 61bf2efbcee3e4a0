#!/usr/bin/env bash
# `make e2e-kind`: the operator acceptance checks on a real cluster. Creates a kind cluster, builds
# and loads the image, lints the chart, installs Postgres and Redis (test/e2e/deps.yaml) and the
# chart with two controller replicas, then checks that
#   - a job created over REST shows in `kubectl get triggers` with its printer columns and status;
#   - `kubectl annotate trigger … switchboard.dev/cancel=…` cancels a pending job, as GET shows;
#   - two controller replicas have one mirror writer (the switchboard-mirror Lease's holder), and
#     the other replica takes over when the writer goes.
# Needs docker, kind, helm, kubectl, curl and node. Env: KIND_CLUSTER (default switchboard-e2e),
# KEEP_CLUSTER=1 to leave the cluster (and its kubeconfig) for a look, E2E_PORT for port-forward.
set -euo pipefail
cd "$(dirname "$0")/../.."

CLUSTER=${KIND_CLUSTER:-switchboard-e2e}
NAMESPACE=switchboard
RELEASE=switchboard
IMAGE_REPOSITORY=switchboard
IMAGE_TAG=e2e
PORT=${E2E_PORT:-18080}
CANCEL_REASON="cancelled by the e2e test"
CONTROLLERS="app.kubernetes.io/instance=$RELEASE,app.kubernetes.io/component=controllers"

step() { printf '\n== %s\n' "$*"; }
fail() { printf 'FAIL: %s\n' "$*" >&2; exit 1; }
# eventually SECONDS COMMAND...: true once COMMAND succeeds, polling every second.
eventually() {
  local seconds=$1 i
  shift
  for ((i = 0; i < seconds; i++)); do
    if "$@"; then return 0; fi
    sleep 1
  done
  return 1
}
# json FIELD: the field (dotted path) of the JSON document on stdin.
json() {
  node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
    let v = JSON.parse(s);
    for (const k of process.argv[1].split(".")) v = v?.[k];
    process.stdout.write(v === undefined || v === null ? "" : String(v));
  });' "$1"
}
k() { kubectl -n "$NAMESPACE" "$@"; }
# api METHOD PATH [BODY]: the Agent API through the port-forward; fails on a non-2xx answer.
api() {
  curl -fsS -X "$1" "http://127.0.0.1:$PORT$2" -H "Authorization: Bearer $API_KEY" \
    -H 'Content-Type: application/json' ${3:+-d "$3"}
}
phase_is() { [[ $(k get trigger "$1" -o jsonpath='{.status.phase}' 2>/dev/null) == "$2" ]]; }
rest_status_is() { [[ $(api GET "/api/v1/triggers/$1" | json status) == "$2" ]]; }
lease_holder() { k get lease switchboard-mirror -o jsonpath='{.spec.holderIdentity}' 2>/dev/null; }
# The mirror's identity is <hostname>:<pid>:<random>, and a pod's hostname is its name.
leader_pod() { local holder; holder=$(lease_holder) && [[ -n $holder ]] && echo "${holder%%:*}"; }
# Controller pods running and not terminating (a deleted pod stays Running while it drains).
running_controllers() {
  k get pods -l "$CONTROLLERS" --field-selector=status.phase=Running \
    -o jsonpath='{range .items[*]}{.metadata.name} {.metadata.deletionTimestamp}{"\n"}{end}' | awk 'NF == 1 { print $1 }'
}
leader_is_not() { local now; now=$(leader_pod) && [[ -n $now && $now != "$1" ]] && grep -qx "$now" <<<"$(running_controllers)"; }

for tool in docker kind helm kubectl curl node; do
  command -v "$tool" >/dev/null || fail "make e2e-kind needs $tool on PATH"
done

KUBECONFIG=$(mktemp)
export KUBECONFIG
CREATED_CLUSTER=
FORWARD_PID=
cleanup() {
  local status=$?
  if ((status != 0)) && kubectl version >/dev/null 2>&1; then
    step "diagnostics"
    k get all,triggers,leases,events 2>&1 | tail -n 80 || true
    k logs -l "app.kubernetes.io/instance=$RELEASE" --all-containers --prefix --tail=60 || true
  fi
  [[ -n $FORWARD_PID ]] && { kill "$FORWARD_PID" 2>/dev/null || true; }
  if [[ -n ${KEEP_CLUSTER:-} ]]; then
    echo "cluster $CLUSTER kept: export KUBECONFIG=$KUBECONFIG"
  else
    [[ -n $CREATED_CLUSTER ]] && { kind delete cluster --name "$CLUSTER" --kubeconfig "$KUBECONFIG" >/dev/null 2>&1 || true; }
    rm -f "$KUBECONFIG"
  fi
  return "$status"
}
trap cleanup EXIT

step "kind cluster $CLUSTER"
if kind get clusters 2>/dev/null | grep -qx "$CLUSTER"; then
  kind get kubeconfig --name "$CLUSTER" >"$KUBECONFIG"
else
  kind create cluster --name "$CLUSTER" --kubeconfig "$KUBECONFIG" --wait 180s
  CREATED_CLUSTER=1
fi

step "image $IMAGE_REPOSITORY:$IMAGE_TAG"
make image IMAGE="$IMAGE_REPOSITORY:$IMAGE_TAG"
kind load docker-image "$IMAGE_REPOSITORY:$IMAGE_TAG" --name "$CLUSTER"

step "helm lint, helm template, and a server-side dry run"
helm lint charts/switchboard --strict
helm lint charts/switchboard --strict -f test/charts/all-options.yaml
helm template "$RELEASE" charts/switchboard -n "$NAMESPACE" -f test/charts/all-options.yaml >/dev/null
kubectl create namespace "$NAMESPACE" --dry-run=client -o yaml | kubectl apply -f -
helm template "$RELEASE" charts/switchboard -n "$NAMESPACE" | k apply --dry-run=server -f - >/dev/null

step "Postgres and Redis"
k apply -f test/e2e/deps.yaml
k rollout status deploy/postgres --timeout=180s
k rollout status deploy/redis --timeout=180s
k create secret generic switchboard \
  --from-literal=DATABASE_URL=postgres://switchboard:switchboard@postgres:5432/switchboard \
  --from-literal=REDIS_URL=redis://redis:6379 \
  --from-literal=SWITCHBOARD_ENCRYPTION_KEY="$(head -c 32 /dev/urandom | base64)" \
  --dry-run=client -o yaml | k apply -f -

step "helm install"
helm upgrade --install "$RELEASE" charts/switchboard -n "$NAMESPACE" --wait --timeout 5m \
  --set image.repository="$IMAGE_REPOSITORY" --set image.tag="$IMAGE_TAG" --set image.pullPolicy=Never \
  --set redis.existingSecret=switchboard --set encryption.existingSecret=switchboard \
  --set api.replicas=1 --set controllers.replicas=2 --set config.SWITCHBOARD_MIRROR_RESYNC_SEC=1
k rollout status "deploy/$RELEASE-api" --timeout=180s
k rollout status "deploy/$RELEASE-controllers" --timeout=180s
k get crd triggers.switchboard.dev campaignruns.switchboard.dev >/dev/null

step "a company, and the API through port-forward"
company=$(k exec "deploy/$RELEASE-api" -- node dist/cmd/switchboard.js admin bootstrap --name "E2E Company" --json)
API_KEY=$(json apiKey <<<"$company")
AGENT_ID=$(json agentId <<<"$company")
TENANT_ID=$(json tenantId <<<"$company")
kubectl -n "$NAMESPACE" port-forward "svc/$RELEASE-api" "$PORT:80" >/dev/null 2>&1 &
FORWARD_PID=$!
eventually 30 curl -fsS -o /dev/null "http://127.0.0.1:$PORT/readyz" || fail "the API is not ready through port-forward"

step "a job created over REST shows in kubectl get triggers"
created=$(api POST /api/v1/triggers "{\"agentId\":\"$AGENT_ID\",\"task\":\"Say hello\",\"idempotencyKey\":\"e2e-run\"}")
RUN_ID=$(json triggerId <<<"$created")
[[ $(json status <<<"$created") == queued ]] || fail "POST /api/v1/triggers answered $created"
# Queued when created; the offline model finishes it, and the object follows.
eventually 90 phase_is "$RUN_ID" succeeded || fail "Trigger $RUN_ID did not reach succeeded: $(k get trigger "$RUN_ID" -o yaml 2>&1)"
table=$(k get triggers)
echo "$table"
grep -qE '^NAME +TENANT +STATUS +ATTEMPTS +NEXT RUN +AGE$' <<<"$table" || fail "unexpected printer columns"
grep -qE "^$RUN_ID +$TENANT_ID +succeeded +1/[0-9]+ " <<<"$table" || fail "no row for $RUN_ID"
grep -q 'WAITING REASON' <<<"$(k get triggers -o wide)" || fail "no Waiting Reason column in -o wide"

step "annotating a pending job cancels it"
# Deferred, so that it stays pending until annotated (a queued job is claimed at once).
created=$(api POST /api/v1/triggers "{\"agentId\":\"$AGENT_ID\",\"task\":\"Follow up tomorrow\",\"delayMinutes\":60,\"idempotencyKey\":\"e2e-wait\"}")
WAIT_ID=$(json triggerId <<<"$created")
[[ $(json status <<<"$created") == waiting ]] || fail "POST /api/v1/triggers answered $created"
eventually 60 phase_is "$WAIT_ID" waiting || fail "Trigger $WAIT_ID was not mirrored"
k annotate trigger "$WAIT_ID" "switchboard.dev/cancel=$CANCEL_REASON"
eventually 60 rest_status_is "$WAIT_ID" cancelled || fail "GET /api/v1/triggers/$WAIT_ID is not cancelled"
[[ $(api GET "/api/v1/triggers/$WAIT_ID" | json errorMessage) == "$CANCEL_REASON" ]] || fail "the reason is not the annotation's"
eventually 60 phase_is "$WAIT_ID" cancelled || fail "Trigger $WAIT_ID does not show cancelled"

step "two controller replicas, one mirror writer"
mapfile -t pods < <(running_controllers)
((${#pods[@]} == 2)) || fail "expected 2 running controller pods, found: ${pods[*]}"
eventually 30 leader_pod >/dev/null || fail "the switchboard-mirror Lease has no holder"
LEADER=$(leader_pod)
[[ " ${pods[*]} " == *" $LEADER "* ]] || fail "the Lease holder $LEADER is not a controller pod"
writers=0
for pod in "${pods[@]}"; do
  if grep -qF '"msg":"became leader"' <<<"$(k logs "$pod")"; then writers=$((writers + 1)); fi
done
((writers == 1)) || fail "$writers controller replicas became the mirror writer"
echo "mirror writer: $LEADER"
k delete pod "$LEADER" --wait=false
eventually 90 leader_is_not "$LEADER" || fail "no other replica took the Lease over from $LEADER"
echo "mirror writer now: $(leader_pod)"
created=$(api POST /api/v1/triggers "{\"agentId\":\"$AGENT_ID\",\"task\":\"Call back next week\",\"delayMinutes\":120,\"idempotencyKey\":\"e2e-after-failover\"}")
eventually 60 phase_is "$(json triggerId <<<"$created")" waiting || fail "the new writer does not mirror jobs"

step "metrics"
metrics=$(curl -fsS "http://127.0.0.1:$PORT/metrics")
grep -qE "^switchboard_api_requests_total\{.*tenant=\"$TENANT_ID\"" <<<"$metrics" || fail "no usage metering for $TENANT_ID"

step "passed"
