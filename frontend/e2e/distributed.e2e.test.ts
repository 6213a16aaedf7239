/**
 * The browser journey against the distributed topology: room, messaging and presence servers, two gateway
 * replicas (Kafka, Postgres, Redis from the global setup) behind nginx as the ingress. Both users open the
 * ingress; the ephemera_gw cookie pins A to gateway-1 and B to gateway-2, so every message crosses replicas.
 */
import os from 'node:os';
import path from 'node:path';
import { registerJourney } from './journey.scenario.ts';
import { distributedTarget } from './targets.ts';

registerJourney('distributed (nginx ingress; A on gateway-1, B on gateway-2)', () => distributedTarget('distributed'), {
  screenshotPath: path.join(os.tmpdir(), 'ephemera-e2e-distributed-room.png'),
  proveReplicaRouting: true,
});
