/**
 * Every socket event is checked under ITS OWN row of the authorization table (proto/src/authz.ts), by the service
 * that owns the caller's role; registered by authz.suite.ts inside its describe, on the room it set up.
 *  - Each event's row is emptied for a moment (allow: nobody) and the owner, whom every row allows, sends that event
 *    with a valid payload: it must be refused FORBIDDEN. A path that borrows another event's row, checks by hand or
 *    checks nothing lets it through. The table is the module object the services read: the room and messaging
 *    services run in this test process in both modes (distributed: each behind its own internal listener, reached
 *    through gateway A, also in this process), so emptying a row here empties it for them.
 *  - Typing, presence and join-channel asked of the owning service as the gateway asks it, for a member who left, a
 *    kicked member and a non-member (their sockets' sessions are ended by the fan-out, so only the service's own
 *    check stands between them and the room when a command races the fan-out): refused with the code the table implies.
 */
import { it, expect } from 'vitest';
import type { Socket } from 'socket.io-client';
import {
  C,
  CLIENT_EVENTS,
  SOCKET_AUTHZ,
  authorize,
  DomainError,
  type ClientEventName,
  type Role,
  type Rule,
  type SessionActor,
} from '@ephemera/proto';
import { connect, request, socketJoin } from '../helpers/clients.ts';
import type { TargetRef } from './target-ref.ts';

/** What authz.suite.ts set up: room 1's ids, the owner's token, and the users who play each refused role. */
export interface OwnRowsWorld {
  workspaceId: string;
  channelId: string;
  owner: { token: string; username: string };
  fixture(event: ClientEventName): unknown;
  /** room 1 as seen by each role: a member who left, a kicked member, and a user of another room */
  actors: { [R in 'member' | 'left' | 'kicked' | 'non-member']: SessionActor };
}

/** The code authorize() answers for this role under this event's row; null when the row allows the role. */
function impliedCode(event: ClientEventName, role: Role): string | null {
  try {
    authorize(SOCKET_AUTHZ[event], role);
    return null;
  } catch (err) {
    return (err as DomainError).code;
  }
}

export function ownRowTests(target: TargetRef, world: () => OwnRowsWorld) {
  it('every client event is checked under its own row: with that row emptied, even the owner is refused FORBIDDEN', async () => {
    const w = world();
    const rows = SOCKET_AUTHZ as Record<ClientEventName, Rule>;
    const open: Socket[] = [];
    const ownerSocket = async () => {
      const { socket } = await socketJoin(target().A, w.workspaceId, w.owner.username, w.owner.token);
      open.push(socket);
      return socket;
    };
    const passed: string[] = [];
    try {
      const shared = await ownerSocket();
      for (const event of Object.keys(CLIENT_EVENTS) as ClientEventName[]) {
        // join-workspace needs a socket that has not joined; leave-workspace ends the session of the socket it came on.
        const socket =
          event === C.joinWorkspace
            ? await connect(target().A)
            : event === C.leaveWorkspace
              ? await ownerSocket()
              : shared;
        if (event === C.joinWorkspace) open.push(socket);
        const payload =
          event === C.joinWorkspace
            ? { workspaceId: w.workspaceId, username: w.owner.username, userToken: w.owner.token }
            : w.fixture(event);
        const saved = rows[event];
        rows[event] = { allow: [] };
        try {
          const ack = await request(socket, event, payload);
          if (ack.success || ack.code !== 'FORBIDDEN') passed.push(`${event}: ${JSON.stringify(ack).slice(0, 120)}`);
        } finally {
          rows[event] = saved;
        }
      }
    } finally {
      for (const s of open) s.disconnect();
    }
    expect(passed.join('\n'), 'events not checked under their own row').toBe('');
  });

  it("typing, presence, the online list and join-channel: the owning service refuses a member who left, a kicked member and a non-member with the table's codes", async () => {
    const w = world();
    const services = target().services;
    if (!services) throw new Error('the target does not expose its services');
    const { rooms, messaging } = services;
    const asks: { [E in ClientEventName]?: (actor: SessionActor) => Promise<unknown> } = {
      [C.typingStart]: (a) => rooms.authorizePresence(a, { event: C.typingStart, channelId: w.channelId }),
      [C.typingStop]: (a) => rooms.authorizePresence(a, { event: C.typingStop, channelId: w.channelId }),
      [C.updatePresence]: (a) => rooms.authorizePresence(a, { event: C.updatePresence }),
      [C.fetchOnlineUsers]: (a) => rooms.authorizePresence(a, { event: C.fetchOnlineUsers }),
      [C.joinChannel]: (a) => messaging.joinChannel(a, { channelId: w.channelId }),
    };
    const answers: string[] = [];
    const expected: string[] = [];
    for (const [event, ask] of Object.entries(asks) as [ClientEventName, (a: SessionActor) => Promise<unknown>][]) {
      for (const role of ['member', 'left', 'kicked', 'non-member'] as const) {
        const got = await ask(w.actors[role]).then(
          () => 'accepted',
          (err: unknown) => (err instanceof DomainError ? err.code : String(err)),
        );
        answers.push(`${event} as ${role}: ${got}`);
        expected.push(`${event} as ${role}: ${impliedCode(event, role) ?? 'accepted'}`);
      }
    }
    expect(answers).toEqual(expected);
    // the codes the table implies for these roles, spelt out (left and non-member: not signed in; kicked: KICKED)
    expect(expected.filter((a) => a.endsWith('KICKED'))).toHaveLength(5);
  });
}
