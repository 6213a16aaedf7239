/**
 * The embedded app as the k6 runner starts it for W4D (BENCH_EMBEDDED_ENTRY, set by k6/run.ts): services/embedded's
 * own start (main.ts's configuration and options), plus, on 127.0.0.1:BENCH_TIER_PORT only, POST /business
 * {workspaceId} that makes the room business through the room module in this process, as billing's tier change does
 * (the calls and files benches call app.rooms.changeTier the same way). A bench entry only: the product's entry
 * (services/embedded/main.ts) has no such port, and embedded mode has no internal routes.
 */
import { createServer } from 'node:http';
import { configOrExit } from '@ephemera/platform/src/config.ts';
import { embeddedConfig } from '../../services/embedded/config.ts';

const config = configOrExit(embeddedConfig);
const { createLogger, parsePreviousMasterKeys } = await import('@ephemera/platform');
const { startEmbedded } = await import('../../services/embedded/app.ts');
const logger = createLogger('embedded', config.LOG_LEVEL);
const app = await startEmbedded({
  port: config.PORT,
  host: config.HOST,
  dataDir: config.DATA_DIR,
  allowedOrigins: config.ALLOWED_ORIGINS,
  logger,
  trustedProxies: config.TRUSTED_PROXIES,
  metrics: { port: config.METRICS_PORT, host: config.METRICS_HOST },
  previousMasterKeys: parsePreviousMasterKeys(config.ROOM_MASTER_KEYS_PREVIOUS),
  config,
});
const tierPort = Number(process.env.BENCH_TIER_PORT);
if (!Number.isInteger(tierPort) || tierPort <= 0) throw new Error('BENCH_TIER_PORT is not a port');
createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const reply = (status: number, body: unknown) => {
      res.statusCode = status;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'POST' || req.url !== '/business') return reply(404, { error: 'POST /business only' });
    let workspaceId: unknown;
    try {
      workspaceId = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { workspaceId?: unknown }).workspaceId;
    } catch {
      return reply(400, { error: 'a JSON body { workspaceId }' });
    }
    if (typeof workspaceId !== 'string') return reply(400, { error: 'a JSON body { workspaceId }' });
    app.rooms.changeTier({ workspaceId, tier: 'business', reason: 'bench' }).then(
      () => reply(200, { workspaceId, tier: 'business' }),
      (err: Error) => reply(400, { error: err.message }),
    );
  });
}).listen(tierPort, '127.0.0.1');
console.log(`Ephemera is running at http://localhost:${app.port} (bench tier port 127.0.0.1:${tierPort})`);
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    app.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
