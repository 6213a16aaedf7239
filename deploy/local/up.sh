#!/usr/bin/env bash
# Start the distributed topology (Kafka, Postgres, Redis, each service as a process, two gateways, nginx) in the
# background and wait until it serves. Prints the address. Stop it with deploy/local/down.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
RUN_DIR="${EPHEMERA_RUN_DIR:-deploy/local/.run}"
bash deploy/local/install.sh
[ -f frontend/dist/index.html ] || npm run build:frontend
if [ -f "$RUN_DIR/stack.pid" ] && kill -0 "$(cat "$RUN_DIR/stack.pid")" 2>/dev/null; then
  echo "already running: $(cat "$RUN_DIR/ready" 2>/dev/null || echo starting)"; exit 0
fi
mkdir -p "$RUN_DIR"
rm -f "$RUN_DIR/ready"
# .env (if any): the stack and, through its environment, every service read it; the real environment wins.
nohup node --env-file-if-exists=.env --import tsx deploy/local/stack.ts > "$RUN_DIR/stack.log" 2>&1 &
echo $! > "$RUN_DIR/stack.pid"
for _ in $(seq 1 300); do
  if [ -f "$RUN_DIR/ready" ]; then echo "Ephemera (distributed) is running at $(cat "$RUN_DIR/ready")"; exit 0; fi
  if ! kill -0 "$(cat "$RUN_DIR/stack.pid")" 2>/dev/null; then echo "failed to start; see $RUN_DIR/stack.log" >&2; tail -20 "$RUN_DIR/stack.log" >&2; exit 1; fi
  sleep 1
done
echo "timed out; see $RUN_DIR/stack.log" >&2; exit 1
