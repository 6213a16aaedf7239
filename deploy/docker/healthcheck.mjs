// Docker HEALTHCHECK of a service image: GET /healthz on the service's port, exit 0 when it answers 200.
// The default ports are the ones each services/<name>/src/main.ts uses when PORT is not set (test/ops checks).
const DEFAULT_PORTS = {
  gateway: 8101,
  room: 8201,
  messaging: 8202,
  presence: 8203,
  billing: 8204,
  'admin-analytics': 8205,
};
const port = process.env.PORT || DEFAULT_PORTS[process.env.SERVICE];
const res = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2500) }).catch(() => null);
process.exit(res?.ok ? 0 : 1);
