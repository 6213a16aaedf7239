/**
 * The commands the gateway dispatches from their row of the command table (proto/src/commands.ts): each reaches its
 * owner's method of the command's name with the session as the actor and the payload as the input, and its ack is the
 * owner's answer (or that answer under the row's `answer` field). A payload naming another room, or another user
 * where userId names the actor, is refused before the owner hears of it.
 */
import { describe, expect, it } from 'vitest';
import {
  COMMANDS,
  C,
  DomainError,
  commandMethod,
  dispatchedCommands,
  type ClientEventName,
  type CommandRow,
  type MessagingApi,
  type PresenceApi,
  type RoomApi,
  type SessionActor,
} from '@ephemera/proto';
import { commandHandlers } from '../src/commands.ts';
import type { Calls } from '../src/calls.ts';
import type { GatewaySocket } from '../src/socket-types.ts';

interface Heard {
  owner: string;
  method: string;
  actor: SessionActor;
  input: unknown;
}

/** A port that records every call and answers a value naming the call. */
function recordingPort(owner: string, heard: Heard[]): unknown {
  return new Proxy(
    {},
    {
      get: (_target, method: string) => async (actor: SessionActor, input: unknown) => {
        heard.push({ owner, method, actor, input });
        return { answeredBy: `${owner}.${method}` };
      },
    },
  );
}

function setup() {
  const heard: Heard[] = [];
  const handlers = commandHandlers({
    rooms: recordingPort('room', heard) as RoomApi,
    messaging: recordingPort('messaging', heard) as MessagingApi,
    presence: {} as PresenceApi,
    gatewayId: 'g1',
    calls: {} as Calls,
  });
  const run = (name: ClientEventName, payload: object, session: SessionActor | null) =>
    (handlers[name] as (s: GatewaySocket, p: unknown, a: SessionActor | null) => Promise<object>)(
      {} as GatewaySocket,
      payload,
      session,
    );
  return { heard, run };
}

const alice: SessionActor = { workspaceId: 'w1', userId: 'u-alice', username: 'alice' };

describe('commands dispatched from the table', () => {
  it('covers every room and messaging command without gateway work, and none other', () => {
    const expected = (Object.keys(COMMANDS) as ClientEventName[]).filter((e) => {
      const row: CommandRow = COMMANDS[e];
      return row.owner !== 'gateway' && !row.gatewayWork;
    });
    expect(dispatchedCommands()).toEqual(expected);
    expect(dispatchedCommands()).toContain(C.renameChannel);
    expect(dispatchedCommands()).toContain(C.addReaction);
    expect(dispatchedCommands()).not.toContain(C.joinWorkspace);
    expect(dispatchedCommands()).not.toContain(C.leaveWorkspace);
  });

  it.each(dispatchedCommands())('%s reaches its owner with the session as the actor', async (name) => {
    const { heard, run } = setup();
    const row: CommandRow = COMMANDS[name];
    const payload = { workspaceId: alice.workspaceId, channelId: 'c1' };
    const ack = await run(name, payload, alice);
    expect(heard).toEqual([{ owner: row.owner, method: commandMethod(name), actor: alice, input: payload }]);
    const answer = { answeredBy: `${row.owner}.${commandMethod(name)}` };
    expect(ack).toEqual(row.answer ? { [row.answer]: answer } : answer);
  });

  it.each(dispatchedCommands())('%s refuses a payload naming another room, and an anonymous socket', async (name) => {
    const { heard, run } = setup();
    await expect(run(name, { workspaceId: 'w-other' }, alice)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(run(name, { workspaceId: alice.workspaceId }, null)).rejects.toMatchObject({
      code: 'NOT_AUTHENTICATED',
    });
    expect(heard).toEqual([]);
  });

  it("compares a payload's userId with the actor's, except where it names the member acted on", async () => {
    const { heard, run } = setup();
    const other = { workspaceId: alice.workspaceId, userId: 'u-bob' };
    await expect(run(C.addReaction, other, alice)).rejects.toBeInstanceOf(DomainError);
    await expect(run(C.broadcastTheme, other, alice)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(heard).toEqual([]);
    await run(C.kickUser, other, alice);
    await run(C.setMemberRole, other, alice);
    expect(heard.map((h) => [h.method, h.actor])).toEqual([
      ['kickUser', alice],
      ['setMemberRole', alice],
    ]);
  });
});
