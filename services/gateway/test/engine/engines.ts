/**
 * The engines a contract test runs on: node everywhere, uws where its binary loads for this Node line and C library
 * (services/gateway/src/engine/uws.ts). Where uWS does not load its cases are reported as skipped, never passed;
 * CI runs them in a Debian 13 root where it does (.ci/uws-root.sh).
 */
import { loadUws, uwsEngine } from '../../src/engine/uws.ts';
import { nodeEngine } from '../../src/engine/node.ts';
import type { GatewayEngine } from '../../src/engine/index.ts';

const uws = loadUws();
export const ENGINES: { name: string; engine: GatewayEngine | null; missing?: string }[] = [
  { name: 'node', engine: nodeEngine },
  'uws' in uws ? { name: 'uws', engine: uwsEngine(uws.uws) } : { name: 'uws', engine: null, missing: uws.reason },
];
/** REQUIRE_UWS=1 (the Debian 13 root's run): a uWS that does not load fails the run instead of skipping its cases. */
if (process.env.REQUIRE_UWS === '1' && 'reason' in uws)
  throw new Error(`REQUIRE_UWS=1 but uWS does not load: ${uws.reason}`);
