/**
 * The authorization table's HTTP rows (proto/src/http-authz.ts), walked with real callers: for every route, every caller
 * its row refuses sends a request and is refused (401 or 403) before anything is read: an anonymous caller, a room
 * member's token where an account session is needed, an account session where a room token is needed, a signed-in
 * account on the superadmin's rows, a plain member on the owner's rows, another room's member on a room's files.
 * A row without a walk here fails the suite, so a new route cannot ship without its refusals being tested.
 */
import { it, expect } from 'vitest';
import { HTTP_AUTHZ, HTTP_ROUTES, type HttpRouteId, type Role } from '@ephemera/proto';
import { http, createRoom, joinRoom, uniqueName } from '../helpers/clients.ts';
import { bearer, register, uniqueEmail, type AccountTarget } from './account-clients.ts';

type Caller = 'anonymous' | 'roomToken' | 'otherRoomToken' | 'plainMember' | 'account';
interface Fixture {
  roomId: string;
  ownerToken: string;
  memberToken: string;
  otherRoomToken: string;
  session: string;
}

const ROOM_ROLES: readonly Role[] = ['owner', 'admin', 'member'];

/** Which callers a row refuses (those this suite can play), from the row alone. */
export function refusedCallers(id: HttpRouteId): Caller[] {
  const allow = HTTP_AUTHZ[id].allow;
  if (allow.length === 0) return ['anonymous', 'roomToken', 'account'];
  if (allow.includes('anonymous')) return [];
  if (allow.some((r) => ROOM_ROLES.includes(r))) {
    const refused: Caller[] = ['anonymous', 'account'];
    if (!allow.includes('member')) refused.push('plainMember');
    if (/:(id|workspaceId)\b/.test(HTTP_ROUTES[id].path)) refused.push('otherRoomToken');
    return refused;
  }
  const refused: Caller[] = ['anonymous', 'roomToken'];
  if (!allow.includes('account') && !allow.includes('room-owner-account')) refused.push('account');
  return refused;
}

function requestFor(id: HttpRouteId, f: Fixture, caller: Caller) {
  const { method, path } = HTTP_ROUTES[id];
  const url = path.replace(/:(id|workspaceId)\b/g, f.roomId).replace(/:[A-Za-z]+/g, 'x');
  const token = {
    anonymous: null,
    roomToken: f.memberToken,
    otherRoomToken: f.otherRoomToken,
    plainMember: f.memberToken,
    account: f.session,
  }[caller];
  const body = method === 'GET' ? undefined : { workspaceId: f.roomId };
  return { url, init: { method, body, headers: token ? bearer(token) : {} } };
}

export function httpAuthzSuite(target: () => AccountTarget) {
  it('every HTTP row is walked: each caller its row refuses is refused (401/403) before anything is read', async () => {
    const t = target();
    const room = await createRoom(t.url, uniqueName('hz'), 'owner');
    const member = await joinRoom(t.url, room.workspaceId, 'plain');
    const other = await createRoom(t.url, uniqueName('hzo'), 'stranger');
    const session = (await register(t, uniqueEmail('hz'))).token;
    const f: Fixture = {
      roomId: room.workspaceId,
      ownerToken: room.userToken,
      memberToken: member.userToken,
      otherRoomToken: other.userToken,
      session,
    };
    const walked: HttpRouteId[] = [];
    for (const id of Object.keys(HTTP_ROUTES) as HttpRouteId[]) {
      for (const caller of refusedCallers(id)) {
        const { url, init } = requestFor(id, f, caller);
        const res = await http(t.url, url, init);
        expect([401, 403], `${id} as ${caller}: ${res.status} ${JSON.stringify(res.body)}`).toContain(res.status);
        walked.push(id);
      }
    }
    // Every row that refuses anyone was walked; the rows that refuse nobody are the public ones.
    const refusing = (Object.keys(HTTP_ROUTES) as HttpRouteId[]).filter(
      (id) => !HTTP_AUTHZ[id].allow.includes('anonymous'),
    );
    expect(new Set(walked)).toEqual(new Set(refusing));
    expect(refusing.length).toBeGreaterThan(40);
  });

  it("the owner's row refuses a plain member; the owner gets past it (then the room's own rules answer)", async () => {
    const t = target();
    const room = await createRoom(t.url, uniqueName('hzx'), 'owner');
    const member = await joinRoom(t.url, room.workspaceId, 'plain');
    const body = { workspaceId: room.workspaceId, extensionDays: 7 };
    const refused = await http(t.url, HTTP_ROUTES.extendRoom.path, { body, headers: bearer(member.userToken) });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('FORBIDDEN');
    const owner = await http(t.url, HTTP_ROUTES.extendRoom.path, { body, headers: bearer(room.userToken) });
    expect([401, 403]).not.toContain(owner.status);
  });
}
