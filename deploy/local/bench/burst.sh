#!/usr/bin/env bash
# burst.sh: N mixed gangs (PyTorchJobs of 1 master + 0-3 workers, JobSets of 1-4 pods; 1, 2, 4 or 8 H100 per pod)
# created at once with real kubectl on a local fleet of 8 clusters x 120 nodes x 8 H100 (burst-fleet.yaml).
# Prints, from the create: when every gang was durable at the broker (its placement record PLACED or APPLIED, read
# from GET /api/v1/workloads), placed on the hub (cluster label), Running there (phase label, mirrored from its
# member), and how many applies the broker sent again. A sample a second; stops by itself.
# Build first (mvn -B -ntp -q -DskipTests install). Usage: deploy/local/bench/burst.sh [N] [SEED]  (300, 42)
# Needs kubectl, jq and curl. Ports 18080 (broker), 19092 (Kafka), 16443 (hub) must be free.
set -euo pipefail
here="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
n=${1:-300}
seed=${2:-42}
out="$root/target/burst"
rm -rf "$out"
mkdir -p "$out"

"$root/deploy/bin/cartograph-local" --profile "$here/burst-fleet.yaml" --data "$out/fleet" --run-seconds 600 \
  --broker-port 18080 --kafka-port 19092 --hub-port 16443 >"$out/fleet.log" 2>&1 &
fleet=$!
trap 'kill $fleet 2>/dev/null; wait $fleet 2>/dev/null || true' EXIT
export KUBECONFIG="$out/fleet/hub.kubeconfig"

for _ in $(seq 1 180); do
  ready=$(kubectl get clusters.cartograph.dev -o json 2>/dev/null | jq '[.items[] | select(.status.ready == true)] | length' 2>/dev/null || echo 0)
  [ "$ready" = 8 ] && break
  sleep 1
done
[ "$ready" = 8 ] || { echo "the fleet did not come up: $out/fleet.log" >&2; exit 1; }
token=$(cat "$out/fleet/broker.token")

awk -v n="$n" -v seed="$seed" 'BEGIN {
  srand(seed)
  split("1 2 4 8", sizes, " ")
  for (i = 0; i < n; i++) {
    gpus = sizes[int(rand() * 4) + 1]
    if (rand() < 0.5) {
      workers = int(rand() * 4)
      printf "---\napiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {name: pt-%d, namespace: burst, labels: {cartograph.dev/federate: \"true\"}}\nspec:\n  pytorchReplicaSpecs:\n", i
      printf "    Master:\n      replicas: 1\n      template:\n        spec:\n          containers: [{name: pytorch, image: x, resources: {limits: {nvidia.com/gpu: \"%d\"}}}]\n", gpus
      if (workers > 0) {
        printf "    Worker:\n      replicas: %d\n      template:\n        spec:\n          containers: [{name: pytorch, image: x, resources: {limits: {nvidia.com/gpu: \"%d\"}}}]\n", workers, gpus
      }
    } else {
      pods = int(rand() * 4) + 1
      printf "---\napiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\nmetadata: {name: js-%d, namespace: burst, labels: {cartograph.dev/federate: \"true\"}}\nspec:\n  replicatedJobs:\n", i
      printf "    - name: workers\n      replicas: 1\n      template:\n        spec:\n          parallelism: %d\n          completions: %d\n          template:\n            spec:\n              restartPolicy: Never\n", pods, pods
      printf "              containers: [{name: trainer, image: x, resources: {limits: {nvidia.com/gpu: \"%d\"}}}]\n", gpus
    }
  }
}' >"$out/gangs.yaml"
kubectl create namespace burst >/dev/null
resent_before=$(grep -c "sending the apply again" "$out/fleet.log" || true)

start=$(date +%s.%N)
kubectl create -f "$out/gangs.yaml" >/dev/null
created=$(date +%s.%N)
durable_at="" placed_at="" running_at=""
since() { awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
for _ in $(seq 1 600); do
  durable=$(curl -sf -H "Authorization: Bearer $token" http://127.0.0.1:18080/api/v1/workloads \
    | jq '[.workloads[] | select(.namespace == "burst" and (.state == "PLACED" or .state == "APPLIED"))] | length' || echo 0)
  hub=$(kubectl get pytorchjobs,jobsets -n burst -o json \
    | jq -c '[([.items[] | select((.metadata.labels["cartograph.dev/cluster"] // "") != "")] | length),
              ([.items[] | select(.metadata.labels["cartograph.dev/phase"] == "Running" or .metadata.labels["cartograph.dev/phase"] == "Completed")] | length)]')
  placed=$(jq '.[0]' <<<"$hub")
  running=$(jq '.[1]' <<<"$hub")
  t=$(since)
  echo "$t s: durable $durable, placed $placed, running $running" >>"$out/samples.txt"
  [ -z "$durable_at" ] && [ "$durable" -ge "$n" ] && durable_at=$t
  [ -z "$placed_at" ] && [ "$placed" -ge "$n" ] && placed_at=$t
  [ -z "$running_at" ] && [ "$running" -ge "$n" ] && running_at=$t
  [ -n "$running_at" ] && [ -n "$durable_at" ] && [ -n "$placed_at" ] && break
  sleep 1
done
resent=$(( $(grep -c "sending the apply again" "$out/fleet.log" || true) - resent_before ))
printf '%d gangs created with kubectl at %s in %.1f s (%s, seed %s)\n' "$n" "$(date -d "@$start" +%T.%3N)" \
  "$(awk -v a="$start" -v b="$created" 'BEGIN { print b - a }')" "$(nproc) processors" "$seed"
echo "every gang durable at the broker after ${durable_at:-never} s, placed on the hub after ${placed_at:-never} s, Running after ${running_at:-never} s"
echo "applies sent again: $resent; samples: $out/samples.txt; fleet log: $out/fleet.log"
