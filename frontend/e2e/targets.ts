/**
 * The two ways of running, as browser-test targets. Embedded: one process, one port for A and B. Distributed: the
 * test stack behind nginx (the same ingress as `npm run distributed:up`, link previews routed to messaging); the
 * ephemera_gw cookie pins A to gateway-1 and B to gateway-2, so every event crosses replicas. A test that runs in
 * both modes loops over MODES; its options (sign-in mail, Google, calls) mean the same in each.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { GoogleConfig } from '@ephemera/billing';
import { INTERNAL, type Tier } from '@ephemera/proto';
import { createLogger } from '@ephemera/platform';
import { startEmbedded } from '../../services/embedded/app.ts';
import { startDistributedStack } from '../../test/distributed/stack.ts';
import { startIngress } from '../../deploy/local/ingress.ts';
import { freePort } from '../../deploy/local/infra.ts';
import type { CookieSpec } from './browser.ts';

const pinTo = (replica: string): CookieSpec[] => [
  { name: 'ephemera_gw', value: replica, domain: '127.0.0.1', path: '/socket.io/' },
];

/** The superadmin's address in both modes when sign-in mail is on (docs/product/admin.md ADM1). */
export const SUPERADMIN_EMAIL = 'root@example.test';

/** The frontend build the servers hand out (a test run may point at its own build). */
const frontendDist = () => process.env.E2E_FRONTEND_DIST;

export interface TargetOptions {
  /** accounts: sign-in codes mailed through this SMTP server (distributed: billing is started with it) */
  smtpUrl?: string;
  /** Google sign-in (null: off); its redirect address must be on `port` */
  google?: GoogleConfig | null;
  /** the port the browser uses (embedded: the app's, distributed: the ingress's); absent: any free one */
  port?: number;
  /** calls as the product rings them (30 s), no STUN or TURN servers: the test's peers are on one machine */
  calls?: boolean;
}

/** What a browser test needs of either mode. */
export interface BrowserTarget {
  urlA: string;
  urlB: string;
  cookiesA: CookieSpec[];
  cookiesB: CookieSpec[];
  replicaA?: string;
  replicaB?: string;
  /** the room service's internal change-tier, as billing calls it */
  changeTier(workspaceId: string, tier: Tier): Promise<void>;
  stop(): Promise<void>;
}

const RING_TIMEOUT_MS = 30_000;

export async function embeddedTarget(name: string, opts: TargetOptions = {}): Promise<BrowserTarget> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `ephemera-e2e-${name}-`));
  try {
    const app = await startEmbedded({
      port: opts.port ?? 0,
      host: '127.0.0.1',
      dataDir,
      logger: createLogger(`e2e-${name}`, 'silent'),
      frontendDist: frontendDist(),
      ...(opts.smtpUrl ? { smtpUrl: opts.smtpUrl, superadminEmail: SUPERADMIN_EMAIL } : {}),
      ...(opts.google !== undefined ? { google: opts.google } : {}),
      ...(opts.calls
        ? {
            calls: {
              ringTimeoutMs: RING_TIMEOUT_MS,
              ice: { stunUrls: [], turnUrls: [], turnCredentialTtlSeconds: 600 },
            },
          }
        : {}),
    });
    return {
      urlA: app.url,
      urlB: app.url,
      cookiesA: [],
      cookiesB: [],
      /** the room service's internal change-tier in the same process (EmbeddedApp.rooms), as billing will call it */
      changeTier: async (workspaceId, tier) => {
        await app.rooms.changeTier({ workspaceId, tier, reason: 'browser test' });
      },
      stop: async () => {
        await app.stop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
}

export async function distributedTarget(name: string, opts: TargetOptions = {}): Promise<BrowserTarget> {
  const billingPort = opts.smtpUrl ? await freePort() : undefined;
  const stack = await startDistributedStack({
    ...(opts.calls ? { callRingTimeoutMs: RING_TIMEOUT_MS } : {}),
    ...(opts.smtpUrl && billingPort
      ? {
          accounts: {
            port: billingPort,
            smtpUrl: opts.smtpUrl,
            superadminEmail: SUPERADMIN_EMAIL,
            ...(opts.google ? { google: opts.google } : {}),
          },
          // the superadmin's dashboard: admin-analytics as its own server, behind the ingress like billing
          admin: true,
        }
      : {}),
  });
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), `ephemera-e2e-${name}-ingress-`));
  let ingress: Awaited<ReturnType<typeof startIngress>>;
  try {
    ingress = await startIngress({
      runDir,
      port: opts.port ?? (await freePort()),
      gateway1Port: stack.gateway1Port,
      gateway2Port: stack.gateway2Port,
      roomPort: stack.roomPort,
      messagingPort: stack.messagingPort,
      ...(billingPort ? { billingPort } : {}),
      ...(stack.adminPort ? { adminPort: stack.adminPort } : {}),
      ...(frontendDist() ? { frontendDist: frontendDist() } : {}),
    });
  } catch (err) {
    await stack.stop();
    fs.rmSync(runDir, { recursive: true, force: true });
    throw err;
  }
  return {
    urlA: ingress.url,
    urlB: ingress.url,
    cookiesA: pinTo('gateway-1'),
    cookiesB: pinTo('gateway-2'),
    replicaA: 'gateway-1',
    replicaB: 'gateway-2',
    changeTier: async (workspaceId, tier) => {
      await stack.roomInternalCall(INTERNAL.changeTier, { workspaceId, tier, reason: 'browser test' });
    },
    stop: async () => {
      await ingress.stop();
      await stack.stop();
      fs.rmSync(runDir, { recursive: true, force: true });
    },
  };
}

/** Both modes, for `for (const [mode, start] of MODES) describe(...)`. */
export const MODES = [
  ['embedded', embeddedTarget],
  ['distributed', distributedTarget],
] as const;
