/**
 * The V8 flags every service process runs with, wherever it runs: deploy/docker/Dockerfile.service's CMD (and so
 * docker-compose.yml and the Helm chart, which use the image's command) and deploy/local/stack.ts
 * (`npm run distributed:up`). test/ops/node-flags.test.ts keeps the three in step and checks that this Node accepts
 * each flag. NODE_OPTIONS cannot carry them: Node admits only a few V8 flags there.
 *
 * --no-memory-reducer: V8's memory reducer runs extra full collections when a process looks idle, to hand memory
 *   back, and every full collection arms it again. An idle gateway holding 1,000 sockets then ran a burst of 2-3
 *   mark-compacts of its ~50 MB heap every minute or so, most of it on V8's helper threads: measured with
 *   load-tests/idle.ts (1,000 sockets, 60 s settle, 60 s window), gateways 1.02-1.30 % of a core with it and
 *   0.73-0.78 % without (three runs); room 0.99-1.10 % and 0.62-0.70 %. The price is memory not handed back after a
 *   burst: RSS after the 1,000 joins +12 MB per gateway, +29 to +39 MB for presence, room and messaging
 *   (docs/decisions/2026-11-27-memory-reducer-off.md). Ordinary collections still bound the heap.
 */
export const SERVICE_NODE_FLAGS: readonly string[] = ['--no-memory-reducer'];
