/**
 * Public routes from the authorization table (public-route.ts): the row decides which caller a route needs, a route
 * registered without its row is refused at start, and Bearer tokens are parsed in one place.
 */
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import express, { type Request } from 'express';
import { DomainError, HTTP_ROUTES } from '@ephemera/proto';
import {
  assertRoutesFromTable,
  bearerToken,
  callerFor,
  publicRoute,
  roomMemberOf,
  sendsAuthorization,
  sessionBearerOfRequest,
  type Callers,
} from '../src/public-route.ts';

const req = {} as Request;
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => (e instanceof DomainError ? e.code : String(e)),
  );
const member = (role: 'owner' | 'admin' | 'member'): Callers => ({
  member: async () => ({ kind: 'member', role, workspaceId: 'w', userId: 'u' }),
});
const account = (superadmin: boolean): Callers => ({
  account: async () => ({ kind: 'account', accountId: 'a', superadmin, account: null }),
});

describe('public routes from the authorization table', () => {
  it('the one Bearer parser: a token of the allowed alphabet and length, else null', () => {
    expect(bearerToken(`Bearer ${'a'.repeat(16)}`)).toBe('a'.repeat(16));
    expect(bearerToken(`Bearer ses_${'A-_9'.repeat(10)}`)).toBe(`ses_${'A-_9'.repeat(10)}`);
    for (const bad of [
      undefined,
      null,
      '',
      'Bearer short',
      `bearer ${'a'.repeat(16)}`,
      `Bearer ${'a'.repeat(16)} x`,
      `Basic ${'a'.repeat(16)}`,
      `Bearer ${'a'.repeat(201)}`,
    ]) {
      expect(bearerToken(bad)).toBeNull();
    }
  });

  it('the request helpers read the header through that parser only', async () => {
    const withHeader = (authorization?: string) =>
      ({ get: (name: string) => (name.toLowerCase() === 'authorization' ? authorization : undefined) }) as Request;
    const session = `ses_${'s'.repeat(20)}`,
      roomToken = 'r'.repeat(43);
    expect(sessionBearerOfRequest(withHeader(`Bearer ${session}`))).toBe(session);
    for (const other of [`Bearer ${roomToken}`, `Bearer ses_short`, `ses_${'s'.repeat(20)}`, undefined])
      expect(sessionBearerOfRequest(withHeader(other))).toBeNull();
    expect([undefined, '', 'Bearer x'].map((h) => sendsAuthorization(withHeader(h)))).toEqual([false, false, true]);
    const asked: string[] = [];
    const tokens = {
      memberOfToken: async (input: { userToken: string }) => {
        asked.push(input.userToken);
        return { workspaceId: 'w', userId: 'u', role: 'member' as const };
      },
    };
    expect(await roomMemberOf(tokens, withHeader(`Bearer ${roomToken}`), 'w')).toEqual({
      kind: 'member',
      workspaceId: 'w',
      userId: 'u',
      role: 'member',
    });
    expect(await refusal(roomMemberOf(tokens, withHeader(`Basic ${roomToken}`)))).toBe('NOT_AUTHENTICATED');
    expect(asked).toEqual([roomToken]); // a header that does not parse asks nobody
  });

  it('no service reads the Authorization header or spells "Bearer " but this file', () => {
    const services = path.resolve(import.meta.dirname, '..', '..');
    const readers: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          if (!['node_modules', 'test', 'dist', 'migrations'].includes(entry.name)) walk(full);
          continue;
        }
        if (!/\.tsx?$/.test(entry.name) || full.endsWith(path.join('platform', 'src', 'public-route.ts'))) continue;
        fs.readFileSync(full, 'utf8')
          .split('\n')
          .forEach((line, i) => {
            const code = line.replace(/\/\/.*$/, '');
            if (/^\s*\*/.test(code)) return; // a comment's line
            // the header by name ('authorization' as a string, .authorization as a property) or a Bearer credential
            if (/['"`]authorization['"`]|\.authorization\b(?!['"`])|['"`]Bearer /i.test(code))
              readers.push(`${path.relative(services, full)}:${i + 1}`);
          });
      }
    };
    walk(services);
    expect(readers).toEqual([]);
  });

  it("a public row asks nobody; a row of room roles needs a member its row allows; the owner's row refuses a member", async () => {
    expect(await callerFor('checkName', {}, req)).toEqual({ kind: 'anonymous' });
    expect((await callerFor('linkPreview', member('member'), req)).kind).toBe('member');
    expect(await refusal(callerFor('extendRoom', member('admin'), req))).toBe('FORBIDDEN');
    expect((await callerFor('extendRoom', member('owner'), req)).kind).toBe('member');
    // the member authenticator's own refusal (no token, revoked) comes through unchanged
    const none: Callers = {
      member: async () => {
        throw new DomainError('NOT_AUTHENTICATED');
      },
    };
    expect(await refusal(callerFor('uploadFile', none, req))).toBe('NOT_AUTHENTICATED');
  });

  it("account rows need a session; the superadmin's rows refuse other accounts with their own text; a row of nobody refuses all", async () => {
    expect((await callerFor('profile', account(false), req)).kind).toBe('account');
    expect((await callerFor('generateRoomToken', account(false), req)).kind).toBe('account'); // the claim: the service's check
    expect(await refusal(callerFor('adminUsers', account(false), req))).toBe('SUPERADMIN_REQUIRED');
    expect((await callerFor('adminUsers', account(true), req)).kind).toBe('account');
    expect(await refusal(callerFor('subscriptionUpdate', account(true), req))).toBe('FORBIDDEN');
  });

  it('an app serving a /api route that was not registered from its row does not start; one registered from its row does', () => {
    const ok = express.Router();
    publicRoute(ok, 'checkName', {}, async (_req, res) => {
      res.json({});
    });
    const app = express();
    app.use(ok);
    expect(() => assertRoutesFromTable(app)).not.toThrow();
    const rogue = express.Router();
    rogue.get('/api/workspaces/:id/secrets', (_req, res) => {
      res.json({});
    });
    app.use(rogue);
    expect(() => assertRoutesFromTable(app)).toThrow(/GET \/api\/workspaces\/:id\/secrets/);
  });

  it("the route answers its row's refusal before its handler runs", async () => {
    let ran = false;
    const r = express.Router();
    publicRoute(
      r,
      'profile',
      {
        account: async () => {
          throw new DomainError('NO_AUTH_TOKEN');
        },
      },
      async () => {
        ran = true;
      },
    );
    const app = express();
    app.use(r);
    app.use((err: DomainError, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      res.status(err.status).json(err.toBody());
    });
    const server = app.listen(0);
    try {
      const port = (server.address() as { port: number }).port;
      const res = await fetch(`http://127.0.0.1:${port}${HTTP_ROUTES.profile.path}`);
      expect(res.status).toBe(401);
      expect((await res.json()).code).toBe('NO_AUTH_TOKEN');
      expect(ran).toBe(false);
    } finally {
      server.close();
    }
  });
});
