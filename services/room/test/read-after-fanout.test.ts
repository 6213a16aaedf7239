/**
 * A room event reaches the log, and so the members (the gateways fan it out), before the room service has applied it
 * to its own read model. A member acting on it at once must not be told that what it just heard of does not exist:
 * typing in a channel just created (authorizePresence), opening a room just renamed (lookupByName), a join that
 * lists the member who just came in (authenticate). The room's reads wait for its commands in flight (core.ts `settled`). This test acts inside the
 * log's delivery of the event, before the command that appended it has applied it; without the wait it is refused.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { TOPICS, type AnyEventEnvelope, type SessionActor } from '@ephemera/proto';
import { clientId } from '../../../test/helpers/clients.ts';
import { startRoomWorld } from '../../../test/helpers/room-world.ts';

describe('reads right after a room event is fanned out', async () => {
  const world = await startRoomWorld();
  const { room, log } = world;
  afterAll(() => world.stop());

  it('find the channel just created, the room by its new name, and the member', async () => {
    const created = await room.service.createWorkspace({ name: `fanout-${clientId()}`, username: 'owner' });
    const ws = created.workspaceId;
    const owner: SessionActor = { workspaceId: ws, userId: created.user.id, username: 'owner' };
    const newName = `renamed-${clientId()}`;

    // What a member's client does the moment its gateway delivers each event (the gateway's own subscription).
    const outcomes: Record<string, unknown> = {};
    const attempt = (name: string, read: () => Promise<unknown>) =>
      read()
        .then(
          () => 'ok',
          (err: { code?: string }) => err.code ?? String(err),
        )
        .then((o) => {
          outcomes[name] = o;
        });
    const pending: Promise<void>[] = [];
    const subscription = await log.subscribe({
      groupId: `fanout-${ws}`,
      topics: [TOPICS.room],
      fromBeginning: false,
      handler: async ({ event }: { event: AnyEventEnvelope }) => {
        if (event.aggregateId !== ws) return;
        if (event.type === 'channel.created')
          pending.push(
            attempt('typing in the new channel', () =>
              room.service.authorizePresence(owner, { event: 'typing-start', channelId: event.payload.channel.id }),
            ),
          );
        if (event.type === 'workspace.renamed')
          pending.push(attempt('opening the room by its new name', () => room.service.lookupByName(newName)));
        if (event.type === 'member.joined') {
          pending.push(
            attempt("the owner's join lists the new member", async () => {
              const { workspace } = await room.service.authenticate({
                workspaceId: ws,
                userToken: created.userToken,
                username: 'owner',
              });
              if (!workspace.users.some((u) => u.username === 'alice'))
                throw Object.assign(new Error(), { code: 'ALICE_MISSING' });
            }),
          );
        }
      },
    });
    await room.service.createChannel(owner, {
      workspaceId: ws,
      name: 'fresh',
      type: 'topic',
      isPrivate: false,
      memberIds: [],
    });
    await room.service.renameWorkspace(owner, { workspaceId: ws, newName });
    await room.service.joinWorkspace(ws, { username: 'alice' });
    await subscription.caughtUp();
    await Promise.all(pending);
    await subscription.stop();
    expect(outcomes).toEqual({
      'typing in the new channel': 'ok',
      'opening the room by its new name': 'ok',
      "the owner's join lists the new member": 'ok',
    });
  });
});
