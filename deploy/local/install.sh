#!/usr/bin/env bash
# Installs what the tests and the distributed topology need, and nothing when it is all there:
# `npm test` runs this every time, so the fast path is a handful of file checks (no apt, no mvn).
#   - Debian packages: PostgreSQL, Redis, nginx and its stream module (the stack's layer-4 entry, layer4.ts),
#     Chromium, Java (Kafka runs on the JVM), Maven (to resolve Kafka), curl (the files bench's upload client)
#   - Apache Kafka jars from Maven Central into deploy/local/.kafka/libs (no broker in Debian or on npm)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
kafka_dir="$here/.kafka"
libs="$kafka_dir/libs"
# Written only after a complete copy, so an interrupted download is retried rather than trusted.
libs_done="$libs/.complete-$(sha1sum "$here/kafka/pom.xml" | cut -c1-12)"

missing=()
compgen -G '/usr/lib/postgresql/*/bin/postgres' >/dev/null || missing+=(postgresql)
command -v redis-server >/dev/null || missing+=(redis-server)
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx-light)
[ -f /usr/lib/nginx/modules/ngx_stream_module.so ] || missing+=(libnginx-mod-stream)
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v java >/dev/null || missing+=(default-jre-headless)
command -v curl >/dev/null || missing+=(curl)
if [ ! -f "$libs_done" ] && ! command -v mvn >/dev/null; then missing+=(maven); fi

if [ ${#missing[@]} -gt 0 ]; then
  echo "install.sh: installing ${missing[*]}" >&2
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
fi

if [ ! -f "$libs_done" ]; then
  mkdir -p "$kafka_dir"
  exec 9>"$kafka_dir/.lock"
  flock 9 # two first runs at once (npm test beside up.sh) must not download into the same directory
fi
if [ ! -f "$libs_done" ]; then
  echo "install.sh: resolving Apache Kafka jars from Maven Central into $libs" >&2
  rm -rf "$libs"
  mkdir -p "$libs"
  # The jars are a build artefact: keep them out of git without touching the root .gitignore.
  echo '*' > "$kafka_dir/.gitignore"
  # Maven prints its errors on stdout: keep it quiet unless it fails.
  if ! out="$(mvn -q -B -f "$here/kafka/pom.xml" dependency:copy-dependencies -DoutputDirectory="$libs" 2>&1)"; then
    echo "$out" >&2; exit 1
  fi
  touch "$libs_done"
fi
