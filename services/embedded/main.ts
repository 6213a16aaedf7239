/** `npm start`: the whole product in one process on embedded defaults. */
import { z } from 'zod';
import { loadConfig, commonEnv, trustedProxies, metricsHost, port, createLogger, startTelemetry, parsePreviousMasterKeys } from '@ephemera/platform';
import { startEmbedded } from './app.ts';

const config = loadConfig(z.object({
  ...commonEnv,
  PORT: port(8080),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  ALLOWED_ORIGINS: z.string().default('').transform((s) => s.split(',').map((o) => o.trim()).filter(Boolean)),
  TRUSTED_PROXIES: trustedProxies,
  METRICS_PORT: port(9464),
  METRICS_HOST: metricsHost,
  /** after replacing DATA_DIR/master.key: the old master keys, comma-separated (docs/crypto.md "Rotation") */
  ROOM_MASTER_KEYS_PREVIOUS: z.string().optional(),
}));

startTelemetry('ephemera-embedded', { exporter: config.OTEL_TRACES_EXPORTER });
const logger = createLogger('embedded', config.LOG_LEVEL);
const app = await startEmbedded({
  port: config.PORT, host: config.HOST, dataDir: config.DATA_DIR, allowedOrigins: config.ALLOWED_ORIGINS, logger,
  trustedProxies: config.TRUSTED_PROXIES, metrics: { port: config.METRICS_PORT, host: config.METRICS_HOST },
  previousMasterKeys: parsePreviousMasterKeys(config.ROOM_MASTER_KEYS_PREVIOUS),
});
logger.info({ port: app.port, dataDir: config.DATA_DIR }, 'Ephemera is running');
console.log(`Ephemera is running at http://localhost:${app.port}`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    app.stop().then(() => process.exit(0), (err) => { logger.error({ err }, 'stop failed'); process.exit(1); });
  });
}
