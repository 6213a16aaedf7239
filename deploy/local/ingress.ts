/**
 * nginx as the ingress of the distributed topology (what a Kubernetes ingress does): /socket.io to the gateway
 * replicas (sticky by the ephemera_gw cookie each gateway sets), /api/link-preview/ and the file routes to messaging,
 * /api/auth/, /api/payments/ and /api/contact to billing, /api/admin/ and /api/maintenance to admin-analytics, the
 * rest of /api to the room service, everything else to the built frontend. Used by stack.ts (npm run distributed:up) and by the browser tests.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runNginx, type NginxProcess } from './nginx-process.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The same headers the embedded mode sets with helmet (services/platform/src/web.ts). */
const SECURITY_HEADERS = `add_header Content-Security-Policy "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; font-src 'self' data:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'" always;
add_header X-Content-Type-Options nosniff always;
add_header X-Frame-Options DENY always;
add_header Referrer-Policy strict-origin-when-cross-origin always;
`;

export interface IngressOptions {
  runDir: string;
  port: number;
  gateway1Port: number;
  gateway2Port: number;
  roomPort: number;
  /** where /api/link-preview/ goes; without it that prefix goes to room like the rest of /api (which answers 404) */
  messagingPort?: number;
  /** where /api/auth/, /api/payments/ and /api/contact go (billing); without it they go to room like the rest of /api */
  billingPort?: number;
  /** where /api/admin/ and /api/maintenance go (admin-analytics); without it they go to room like the rest of /api */
  adminPort?: number;
  frontendDist?: string;
}

export async function startIngress(opts: IngressOptions): Promise<NginxProcess> {
  fs.mkdirSync(opts.runDir, { recursive: true });
  const conf = path.join(opts.runDir, 'nginx.conf');
  const template = fs.readFileSync(path.join(here, 'nginx.conf.template'), 'utf8');
  const values: Record<string, string | number> = {
    RUN_DIR: opts.runDir,
    FRONTEND_DIST: opts.frontendDist ?? path.join(here, '..', '..', 'frontend', 'dist'),
    HTTP_PORT: opts.port,
    GATEWAY_1: opts.gateway1Port,
    GATEWAY_2: opts.gateway2Port,
    ROOM: opts.roomPort,
    MESSAGING: opts.messagingPort ?? opts.roomPort,
    BILLING: opts.billingPort ?? opts.roomPort,
    ADMIN: opts.adminPort ?? opts.roomPort,
    USER: process.getuid?.() === 0 ? 'user root;' : '',
  };
  fs.writeFileSync(path.join(opts.runDir, 'security-headers.conf'), SECURITY_HEADERS);
  fs.writeFileSync(
    conf,
    template.replace(/\$\{(\w+)\}/g, (_, k: string) => String(values[k] ?? '')),
  );
  return runNginx({
    runDir: opts.runDir,
    conf,
    log: 'nginx.log',
    errorLog: 'nginx-error.log',
    port: opts.port,
    what: 'nginx',
  });
}
