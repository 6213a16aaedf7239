#!/usr/bin/env bash
# npm run chart:check — every check of the deployment artefacts that this machine can run without a cluster:
#   1. promtool: the alerting rules parse, their unit tests (deploy/ops/prometheus/alerts.test.yaml) pass, and the
#      Grafana dashboard's queries parse
#   2. helm lint --strict (values.schema.json included) with the default values and each charts/ephemera/ci/*.yaml
#   3. helm template of the same value sets, validated offline by kubeconform -strict against JSON schemas
#      generated from Kubernetes' own OpenAPI document (an unknown field is an error)
#   4. the same objects sent to a real kube-apiserver + etcd as creates with dryRun=All&fieldValidation=Strict
# Tools are built once from the Go module proxy into deploy/local/.tools (install-tools.sh); later runs reuse them.
# CHART=path checks another chart directory (used to prove that a broken copy fails).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
chart="${CHART:-charts/ephemera}"
tools="${EPHEMERA_TOOLS:-$root/deploy/local/.tools}"
bin="$tools/bin"
KUBE_VERSION=1.37.2   # the kube-apiserver and schemas install-tools.sh builds
start=$SECONDS
step() { echo "chart:check: $* ($((SECONDS - start)) s)"; }

EPHEMERA_TOOLS="$tools" bash deploy/ops/install-tools.sh helm kubeconform promtool kube schemas
step "tools ready"

# 1. Prometheus rules
"$bin/promtool" check rules "$chart/files/prometheus/alerts.yaml"
(cd deploy/ops/prometheus && "$bin/promtool" test rules alerts.test.yaml)
# The dashboard's queries parse as PromQL: each becomes a recording rule that promtool checks.
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
python3 - "$chart/files/grafana/ephemera.json" > "$out/dashboard-rules.yaml" <<'PY'
import json, sys
exprs = [t["expr"] for p in json.load(open(sys.argv[1]))["panels"] for t in p.get("targets", [])]
print("groups:\n  - name: dashboard\n    rules:")
for i, e in enumerate(exprs):
    print(f"      - record: dashboard:panel_{i}\n        expr: {json.dumps(e)}")
PY
"$bin/promtool" check rules "$out/dashboard-rules.yaml" >/dev/null
step "promtool: rules valid, unit tests pass, dashboard queries parse"

# 2 + 3. lint and render each value set, then schema-validate the rendered objects
sets=(default)
for f in "$chart"/ci/*.yaml; do [ -e "$f" ] && sets+=("$f"); done
rendered=()
for set in "${sets[@]}"; do
  name="$(basename "$set" .yaml)"
  args=(--kube-version "$KUBE_VERSION")
  [ "$set" = default ] || args+=(-f "$set")
  "$bin/helm" lint --strict --quiet "$chart" "${args[@]}"
  "$bin/helm" template ephemera "$chart" --namespace ephemera "${args[@]}" > "$out/$name.yaml"
  rendered+=("$out/$name.yaml")
done
step "helm lint --strict and helm template: ${sets[*]}"
"$bin/kubeconform" -strict -summary -kubernetes-version "$KUBE_VERSION" \
  -schema-location "$tools/k8s-schemas/v$KUBE_VERSION/{{ .ResourceKind }}{{ .KindSuffix }}.json" "${rendered[@]}"
step "kubeconform -strict"

# 4. server-side dry run against a real API server
EPHEMERA_TOOLS="$tools" node --import tsx deploy/ops/apiserver-dry-run.ts "${rendered[@]}"
step "server-side dry run; chart:check passed"
