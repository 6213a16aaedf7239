/**
 * The service boundary in distributed mode: internal routes through every public entry (both gateways with
 * HTTP_UPSTREAM, the local ingress nginx, each of the six services' public ports) are refused however spelt; on the internal
 * listener, a call without the service credential, with a wrong one, an expired one, or one signed for another
 * body or path is refused with 401 and changes nothing; a signed call goes through.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, C, CONTACT_PATH, INTERNAL, commandPath } from '@ephemera/proto';
import { SERVICE_CREDENTIAL_HEADER, serviceCredential, signServiceRequest } from '@ephemera/platform';
import { ROOM_KEY_ROUTE } from '@ephemera/room/src/room-keys-http.ts';
import { ACCOUNT_KEY_ROUTE } from '@ephemera/billing/src/account-keys-http.ts';
import { startDistributedStack } from '../distributed/stack.ts';
import { startIngress } from '../../deploy/local/ingress.ts';
import { freePort } from '../../deploy/local/infra.ts';
import { createRoom, http } from '../helpers/clients.ts';
import { internalSpellings, rawRequest, serviceBoundarySuite } from './service-boundary.suite.ts';

let stack: Awaited<ReturnType<typeof startDistributedStack>>;
let ingress: Awaited<ReturnType<typeof startIngress>>;
const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-boundary-ingress-'));
const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-boundary-dist-'));
let billingPort = 0;
beforeAll(async () => {
  billingPort = await freePort();
  // billing and admin-analytics too (no mail is sent here: the SMTP address is never used)
  stack = await startDistributedStack({
    accounts: { port: billingPort, smtpUrl: 'smtp://127.0.0.1:9', superadminEmail: 'admin@example.com' },
    admin: true,
  });
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>ephemera</title>');
  ingress = await startIngress({
    runDir,
    port: await freePort(),
    gateway1Port: stack.gateway1Port,
    gateway2Port: stack.gateway2Port,
    roomPort: stack.roomPort,
    messagingPort: stack.messagingPort,
    billingPort,
    adminPort: stack.adminPort,
    frontendDist: dist,
  });
}, 180_000);
afterAll(async () => {
  await ingress?.stop();
  await stack?.stop();
  for (const dir of [runDir, dist]) fs.rmSync(dir, { recursive: true, force: true });
});

const local = (port: number) => `http://127.0.0.1:${port}`;
serviceBoundarySuite(() => ({
  url: stack.urlA,
  entries: [
    { name: 'gateway 1 (HTTP_UPSTREAM)', url: stack.urlA },
    { name: 'gateway 2 (HTTP_UPSTREAM)', url: stack.urlB },
    // nginx answers 400 itself to a path that climbs above the root (/api/../../x)
    { name: 'nginx', url: ingress.url, refusals: [400, 404] },
    { name: 'room public port', url: local(stack.roomPort) },
    { name: 'messaging public port', url: local(stack.messagingPort) },
    { name: 'presence public port', url: local(stack.presencePort) },
    { name: 'billing public port', url: local(billingPort) },
    { name: 'admin-analytics public port', url: local(stack.adminPort!) },
  ],
}));

describe("service boundary: billing's internal routes", () => {
  it("a contact message's key and the superadmin's account commands are refused on every public entry, however spelt", async () => {
    // a contact message gets a data key of its own in billing's key store, named by the message's id
    const sent = await http(stack.urlA, CONTACT_PATH, {
      body: { name: 'Ada', email: 'ada@example.com', category: 'Bug', message: 'hello' },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const route = `${ACCOUNT_KEY_ROUTE}/${sent.body.id}`;
    for (const url of [
      stack.urlA,
      stack.urlB,
      ingress.url,
      local(billingPort),
      local(stack.adminPort!),
      local(stack.roomPort),
    ]) {
      for (const path of internalSpellings(route)) {
        const res = await rawRequest(url, 'GET', path);
        expect(res.body, `${url} ${path}`).not.toMatch(/"key"/);
        expect([400, 404], `${url} ${path} answered ${res.status}`).toContain(res.status);
      }
      for (const path of internalSpellings('/internal/admin/accounts/suspendAccount')) {
        const res = await rawRequest(url, 'POST', path, '{}');
        expect([400, 404], `${url} POST ${path} answered ${res.status}`).toContain(res.status);
      }
    }
    // on billing's internal listener: unsigned refused, signed answered
    expect((await rawRequest(stack.internal.billing!, 'GET', route)).status).toBe(401);
    const signed = await fetch(stack.internal.billing! + route, {
      headers: {
        [SERVICE_CREDENTIAL_HEADER]: signServiceRequest(
          serviceCredential('admin-analytics', stack.serviceSecret),
          'GET',
          route,
        ),
      },
    });
    expect(signed.status).toBe(200);
    expect(await signed.json()).toHaveProperty('key');
  });
});

describe('service boundary: the internal listener verifies the service credential', () => {
  const tierOf = async (workspaceId: string) =>
    (await http(stack.urlA, API.info(workspaceId))).body.settings.tier as string;
  const post = (route: string, json: string, credential?: string) =>
    fetch(stack.internal.room + route, {
      method: 'POST',
      body: json,
      headers: {
        'content-type': 'application/json',
        ...(credential ? { [SERVICE_CREDENTIAL_HEADER]: credential } : {}),
      },
    });

  it('change-tier without a credential, with a wrong, expired or misapplied one: 401 and the tier stays; signed: done', async () => {
    const room = await createRoom(stack.urlA);
    const json = JSON.stringify({ workspaceId: room.workspaceId, tier: 'business', reason: 'test' });
    const right = serviceCredential('billing', stack.serviceSecret);
    const wrong = serviceCredential('billing', 'w'.repeat(64));
    const refusals = {
      none: undefined,
      malformed: 'billing.9999999999.abc',
      wrong: signServiceRequest(wrong, 'POST', INTERNAL.changeTier, json),
      expired: signServiceRequest(right, 'POST', INTERNAL.changeTier, json, Date.now() - 61_000),
      'another body': signServiceRequest(right, 'POST', INTERNAL.changeTier, json.replace('business', 'pro')),
      'another path': signServiceRequest(right, 'POST', commandPath(C.extendWorkspace), json),
      'another method': signServiceRequest(right, 'GET', INTERNAL.changeTier, json),
    };
    for (const [name, credential] of Object.entries(refusals)) {
      const res = await post(INTERNAL.changeTier, json, credential);
      expect(res.status, name).toBe(401);
      expect(await res.json(), name).toMatchObject({ success: false });
    }
    // nor through the batch route, which runs the same handler
    const batch = JSON.stringify({ calls: [{ path: INTERNAL.changeTier, body: JSON.parse(json) }] });
    expect((await post(INTERNAL.roomBatch, batch)).status).toBe(401);
    expect(
      (await post(INTERNAL.roomBatch, batch, signServiceRequest(wrong, 'POST', INTERNAL.roomBatch, batch))).status,
    ).toBe(401);
    expect(await tierOf(room.workspaceId)).toBe('free');

    const signed = await post(INTERNAL.changeTier, json, signServiceRequest(right, 'POST', INTERNAL.changeTier, json));
    expect(signed.status, await signed.clone().text()).toBe(200);
    expect(await tierOf(room.workspaceId)).toBe('business');
  });

  it('a room key without a valid credential: 401 and no key; signed: the key', async () => {
    const room = await createRoom(stack.urlA);
    const route = `${ROOM_KEY_ROUTE}/${room.workspaceId}`;
    const get = (credential?: string) =>
      fetch(stack.internal.room + route, { headers: credential ? { [SERVICE_CREDENTIAL_HEADER]: credential } : {} });
    for (const credential of [
      undefined,
      signServiceRequest(serviceCredential('gateway', 'w'.repeat(64)), 'GET', route),
      signServiceRequest(serviceCredential('gateway', stack.serviceSecret), 'GET', route, '', Date.now() - 61_000),
    ]) {
      const res = await get(credential);
      expect(res.status).toBe(401);
      expect(await res.text()).not.toMatch(/"key"/);
    }
    const res = await get(signServiceRequest(serviceCredential('gateway', stack.serviceSecret), 'GET', route));
    expect(res.status).toBe(200);
    expect(await res.json()).toHaveProperty('key');
  });
});
