#!/usr/bin/env bash
# Builds the operations tools the chart check uses, from the Go module proxy, once; later runs reuse the binaries.
#   helm, kubeconform, promtool: `go install` at pinned versions (promtool with -tags remove_all_sd: without it a
#   cloud service-discovery dependency is not served by the proxy)
#   kube-apiserver + etcd: built from the wrapper module in deploy/ops/kube (go install refuses k8s.io/kubernetes)
#   compose-check: docker compose's loader (compose-go) as a small command, deploy/ops/compose-check
#   Kubernetes JSON schemas for kubeconform: generated offline from k8s.io/kubernetes' swagger.json
#   k6: the load generator of load-tests/k6 (`npm run bench:k6`), `go install` at a pinned version
#   versitygw: the S3-compatible server (S3 over a folder) the file storage tests start, `go install` at a pinned version
#   turn: a TURN server on pion/turn (pinned) checking TURN REST (shared-secret) credentials, as pion-turn, for the
#   calls browser test: deploy/ops/pion-turn, a few lines of Go (pion's own example checks another username form)
#   mailpit: the SMTP catcher the sign-in tests read one-time codes from; built from the wrapper module in
#   deploy/ops/mailpit (plain `go install` is refused: the proxy lists no versions of it)
#   stripe-mock: Stripe's own mock API server (OpenAPI spec + fixtures embedded) the payment tests call through the
#   stripe SDK, `go install` at a pinned version
# Usage: install-tools.sh [helm kubeconform promtool kube schemas compose k6 versitygw mailpit turn stripe-mock]   (default: all). Prints nothing when cached.
# Binaries go to $EPHEMERA_TOOLS (default deploy/local/.tools), which keeps its own .gitignore.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
tools="${EPHEMERA_TOOLS:-$here/../local/.tools}"
mkdir -p "$tools/bin"
tools="$(cd "$tools" && pwd)"
echo '*' > "$tools/.gitignore"

HELM_VERSION=v3.22.0
KUBECONFORM_VERSION=v0.8.0
PROMETHEUS_VERSION=v0.316.0
KUBERNETES_VERSION=v1.37.2   # must match deploy/ops/kube/go.mod
K6_VERSION=v1.8.1
VERSITYGW_VERSION=v1.8.0
PION_TURN_VERSION=v4.1.4   # must match deploy/ops/pion-turn/go.mod
MAILPIT_VERSION=v1.27.11   # must match deploy/ops/mailpit/go.mod
STRIPE_MOCK_VERSION=v0.203.0

# The proxy alone: a module it does not serve must fail fast, not fall back to the origin host (no network here).
proxy="${EPHEMERA_GOPROXY:-$(go env GOPROXY | cut -d, -f1)}"
case "$proxy" in direct|off|"") proxy=https://proxy.golang.org ;; esac
export GOPROXY="$proxy" GOFLAGS="-mod=mod -buildvcs=false" GOTOOLCHAIN=local CGO_ENABLED=0

# stamp <name> <version>: true when <name> was built at <version> (a stamp is written only after a complete build)
fresh() { [ -x "$tools/bin/$1" ] && [ "$(cat "$tools/.$1.version" 2>/dev/null)" = "$2" ]; }
stamp() { echo "$2" > "$tools/.$1.version"; }
# Builds run niced: in `npm test` they share two cores with the other test files, whose timings must not suffer.
timed() { local t=$SECONDS; nice -n 10 "$@"; echo "install-tools: $1 ${*: -1} took $((SECONDS - t)) s" >&2; }

want=("$@"); [ ${#want[@]} -gt 0 ] || want=(helm kubeconform promtool kube schemas compose k6)

for tool in "${want[@]}"; do
  # Two runs at once (test files in parallel, npm test beside a manual chart:check) must not build the same tool
  # into the same place; different tools build side by side (Go's caches are safe to share).
  exec 9>"$tools/.lock-$tool"
  flock 9
  case "$tool" in
    helm)
      fresh helm $HELM_VERSION || { timed env GOBIN="$tools/bin" go install helm.sh/helm/v3/cmd/helm@$HELM_VERSION; stamp helm $HELM_VERSION; } ;;
    kubeconform)
      fresh kubeconform $KUBECONFORM_VERSION || { timed env GOBIN="$tools/bin" go install github.com/yannh/kubeconform/cmd/kubeconform@$KUBECONFORM_VERSION; stamp kubeconform $KUBECONFORM_VERSION; } ;;
    promtool)
      fresh promtool $PROMETHEUS_VERSION || { timed env GOBIN="$tools/bin" go install -tags remove_all_sd github.com/prometheus/prometheus/cmd/promtool@$PROMETHEUS_VERSION; stamp promtool $PROMETHEUS_VERSION; } ;;
    kube)
      # One go build for both (shared packages compile once, the two links run side by side); no -trimpath, so
      # the standard library and common modules compiled for helm/promtool are reused from the build cache.
      # The version string is set so kube-apiserver's /version says what was built.
      if ! fresh kube-apiserver $KUBERNETES_VERSION || ! fresh etcd $KUBERNETES_VERSION; then
        (cd "$here/kube" && timed go build -ldflags "-s -w -X k8s.io/component-base/version.gitVersion=$KUBERNETES_VERSION" \
          -o "$tools/bin/" k8s.io/kubernetes/cmd/kube-apiserver ./etcd)
        stamp kube-apiserver $KUBERNETES_VERSION
        stamp etcd $KUBERNETES_VERSION
      fi ;;
    compose)
      # Rebuilt when its source changes (the stamp is a hash of go.mod and main.go).
      sum="$(cat "$here/compose-check/go.mod" "$here/compose-check/main.go" | sha1sum | cut -c1-12)"
      fresh compose-check "$sum" || { (cd "$here/compose-check" && timed go build -o "$tools/bin/compose-check" .); stamp compose-check "$sum"; } ;;
    k6)
      fresh k6 $K6_VERSION || { timed env GOBIN="$tools/bin" go install go.k6.io/k6@$K6_VERSION; stamp k6 $K6_VERSION; } ;;
    versitygw)
      fresh versitygw $VERSITYGW_VERSION || { timed env GOBIN="$tools/bin" go install github.com/versity/versitygw/cmd/versitygw@$VERSITYGW_VERSION; stamp versitygw $VERSITYGW_VERSION; } ;;
    turn)
      fresh pion-turn $PION_TURN_VERSION || { (cd "$here/pion-turn" && timed go build -o "$tools/bin/pion-turn" .); stamp pion-turn $PION_TURN_VERSION; } ;;
    mailpit)
      # `go mod tidy` writes go.sum into the wrapper directory; the binary never calls `mailpit version` (it phones home).
      fresh mailpit $MAILPIT_VERSION || { (cd "$here/mailpit" && go mod tidy && timed go build -o "$tools/bin/mailpit" github.com/axllent/mailpit); stamp mailpit $MAILPIT_VERSION; } ;;
    stripe-mock)
      fresh stripe-mock $STRIPE_MOCK_VERSION || { timed env GOBIN="$tools/bin" go install github.com/stripe/stripe-mock@$STRIPE_MOCK_VERSION; stamp stripe-mock $STRIPE_MOCK_VERSION; } ;;
    schemas)
      dir="$tools/k8s-schemas/$KUBERNETES_VERSION"
      if [ ! -f "$dir/.complete" ]; then
        src="$(go mod download -json k8s.io/kubernetes@$KUBERNETES_VERSION | python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')"
        rm -rf "$dir"
        python3 "$here/swagger2schemas.py" "$src/api/openapi-spec/swagger.json" "$dir" >&2
        touch "$dir/.complete"
      fi ;;
    *) echo "install-tools: unknown tool $tool" >&2; exit 2 ;;
  esac
  exec 9>&-
done
