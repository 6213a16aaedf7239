#!/usr/bin/env bash
# Stop everything deploy/local/up.sh started.
set -euo pipefail
cd "$(dirname "$0")/../.."
RUN_DIR="${EPHEMERA_RUN_DIR:-deploy/local/.run}"
if [ -f "$RUN_DIR/stack.pid" ]; then
  pid=$(cat "$RUN_DIR/stack.pid")
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
  kill -KILL "$pid" 2>/dev/null || true
  rm -f "$RUN_DIR/stack.pid"
fi
echo "stopped"
