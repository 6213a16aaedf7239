/**
 * Every route and socket that takes a credential, as probes: each one asks its route with a token and says whether
 * the token was accepted (true) or refused (false). An answer that is neither (a 500, an unexpected status) throws,
 * so a crash never passes for a refusal. The credential contract (credentials.suite.ts) runs them all after every
 * event that issues, replaces or revokes a credential.
 */
import { expect } from 'vitest';
import { ADMIN_API, API, AUTH_API, C, LINK_PREVIEW_PATH, PAYMENTS_API } from '@ephemera/proto';
import { connect, http, request } from '../helpers/clients.ts';
import { upload } from '../suites/files.suite.ts';

export type Probe = (token: string) => Promise<boolean>;
export type Probes = Record<string, Probe>;

/** accepted when the status is one of `yes`, refused when one of `no`; anything else is a failure of its own */
function verdict(what: string, status: number, body: unknown, yes: number[], no: number[]): boolean {
  if (yes.includes(status)) return true;
  if (no.includes(status)) return false;
  throw new Error(`${what}: unexpected ${status} ${JSON.stringify(body)}`);
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A room the probes use: a channel to upload into and a file in it to fetch. */
export interface ProbeRoom {
  workspaceId: string;
  channelId: string;
  fileId: string;
}

/**
 * Every place a member's room token is taken: join-workspace on each gateway replica, the link-preview fetch, the
 * file routes (upload, signed link, bytes) and extend-room. An accepted link-preview call is one that got past the
 * token to the body's validation (400), so no page is fetched.
 */
export function roomTokenProbes(gateways: string[], room: ProbeRoom): Probes {
  const base = gateways[0]!;
  const probes: Probes = {};
  gateways.forEach((url, i) => {
    probes[`socket join-workspace (gateway ${i + 1})`] = async (token) => {
      const socket = await connect(url);
      try {
        const ack = await request(socket, C.joinWorkspace, {
          workspaceId: room.workspaceId,
          username: 'probe',
          userToken: token,
        });
        return ack.success;
      } finally {
        socket.close();
      }
    };
  });
  probes['POST /api/link-preview/fetch'] = async (token) => {
    const res = await http(base, LINK_PREVIEW_PATH, { body: {}, headers: bearer(token) });
    return verdict('link-preview', res.status, res.body, [400], [401]);
  };
  probes['POST /api/workspaces/{id}/files'] = async (token) => {
    const res = await upload(
      base,
      room.workspaceId,
      token,
      { channelId: room.channelId },
      { name: 'probe.txt', type: 'text/plain', bytes: Buffer.from('probe') },
    );
    return verdict('upload', res.status, res.body, [201], [401]);
  };
  probes['GET /api/workspaces/{id}/files/{file}/link'] = async (token) => {
    const res = await http(base, API.fileLink(room.workspaceId, room.fileId), { headers: bearer(token) });
    return verdict('file link', res.status, res.body, [200], [401]);
  };
  probes['GET /api/workspaces/{id}/files/{file}'] = async (token) => {
    const res = await fetch(base + API.file(room.workspaceId, room.fileId), { headers: bearer(token) });
    await res.arrayBuffer();
    return verdict('download', res.status, null, [200], [401]);
  };
  probes['POST /api/workspaces/extend-room'] = async (token) => {
    // the owner of a free room is told to pay (402), a member that only the owner may (403): both were recognised
    const res = await http(base, API.extendRoom(), {
      body: { workspaceId: room.workspaceId, extensionDays: 7 },
      headers: bearer(token),
    });
    return verdict('extend-room', res.status, res.body, [200, 402, 403], [401, 404]);
  };
  return probes;
}

/**
 * Every place an account session is taken: billing's account routes, the payments routes, the room service's
 * account routes (checked before the room is looked for: a room that does not exist answers 404 to a live session)
 * and the superadmin's API (a live session of another account: 403).
 */
export function sessionProbes(base: string, ownedRoomName?: string): Probes {
  const missingRoom = 'ws_no_such_room_0000';
  const get = (path: string, yes: number[]) => async (token: string) => {
    const res = await http(base, path, { headers: bearer(token) });
    return verdict(path, res.status, res.body, yes, [401]);
  };
  const probes: Probes = {
    [`GET ${AUTH_API.profile}`]: get(AUTH_API.profile, [200]),
    [`GET ${AUTH_API.exportData}`]: get(AUTH_API.exportData, [200]),
    ['GET /api/payments/subscription-status']: get(PAYMENTS_API.subscriptionStatus(), [200, 503]),
    [`GET ${ADMIN_API.users}`]: get(ADMIN_API.users, [403]),
    ['POST /api/workspaces/{id}/claim-ownership']: async (token) => {
      const res = await http(base, AUTH_API.claimOwnership(missingRoom), {
        body: { userToken: 'x'.repeat(32) },
        headers: bearer(token),
      });
      return verdict('claim-ownership', res.status, res.body, [404], [401]);
    },
    ['DELETE /api/workspaces/{id}']: async (token) => {
      const res = await http(base, AUTH_API.deleteWorkspace(missingRoom), { method: 'DELETE', headers: bearer(token) });
      return verdict('delete workspace', res.status, res.body, [404], [401]);
    },
  };
  // The owner's room by name answers its owner token only to a live session of the owner (and issues a new one).
  if (ownedRoomName) {
    probes['GET /api/workspaces/room/{name} (ownerToken)'] = async (token) => {
      const res = await http(base, API.roomByName(ownedRoomName), { headers: bearer(token) });
      if (res.status !== 200) throw new Error(`room by name: unexpected ${res.status} ${JSON.stringify(res.body)}`);
      return typeof res.body.ownerToken === 'string';
    };
  }
  return probes;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** How long the last settle took, per event (the suite prints them). */
export const settleTimes: { event: string; ms: number }[] = [];

/**
 * Within `withinMs` of now, every probe answers `accepted` for `token` (each is asked again until it does). Fails
 * naming the probes that still answered otherwise; records how long it took.
 */
export async function settles(
  event: string,
  probes: Probes,
  token: string,
  accepted: boolean,
  withinMs = 1000,
): Promise<void> {
  const start = Date.now();
  const late = await Promise.all(
    Object.entries(probes).map(async ([name, probe]) => {
      for (;;) {
        const got = await probe(token);
        if (got === accepted) return null;
        if (Date.now() - start > withinMs) return `${name}: ${got ? 'accepted' : 'refused'}`;
        await sleep(50);
      }
    }),
  );
  settleTimes.push({ event, ms: Date.now() - start });
  expect(
    late.filter(Boolean),
    `${event}: within ${withinMs} ms every route and socket ${accepted ? 'accepts' : 'refuses'} the credential`,
  ).toEqual([]);
}
