/** `npm start`: the whole product in one process on embedded defaults. */
import { configOrExit } from '@ephemera/platform/src/config.ts';
import { embeddedConfig } from './config.ts';

const config = configOrExit(embeddedConfig);
// The code that serves is loaded only once the configuration is accepted: a refusal is immediate and opens nothing.
const { createLogger, startTelemetry, parsePreviousMasterKeys } = await import('@ephemera/platform');
const { startEmbedded } = await import('./app.ts');
startTelemetry('ephemera-embedded', { exporter: config.OTEL_TRACES_EXPORTER });
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
logger.info({ port: app.port, dataDir: config.DATA_DIR }, 'Ephemera is running');
console.log(`Ephemera is running at http://localhost:${app.port}`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    app.stop().then(
      () => process.exit(0),
      (err) => {
        logger.error({ err }, 'stop failed');
        process.exit(1);
      },
    );
  });
}
