/**
 * Direct messages: one DM per pair of members, created on demand (the partner's sockets get auto-open-dm from the
 * fan-out of channel.created); delete-dm hides it for the caller only (dm.hidden); a later message in it brings it
 * back for whoever hid it (dm.reopened, appended by the policy below, which consumes the messaging topic).
 */
import {
  C,
  DomainError,
  SERVICE_TEXTS,
  type Channel,
  type CreateDmChannelSchema,
  type DeleteDmSchema,
  type Message,
  type SessionActor,
} from '@ephemera/proto';
import { newId } from '@ephemera/platform';
import type { z } from 'zod';
import type { RoomCore } from './core.ts';
import { checkDmMember, dmKeyOf } from './rules.ts';

/** DMs are named by their two members on the client; the stored name is a constant. */
export const DM_NAME = 'dm';

export async function createDmChannel(
  core: RoomCore,
  actor: SessionActor,
  input: z.output<typeof CreateDmChannelSchema>,
): Promise<Channel> {
  return core.userCommand(actor, C.createDmChannel, input.workspaceId, async (cmd) => {
    if (input.targetUserId === actor.userId) throw new DomainError('VALIDATION', SERVICE_TEXTS.dmSelf);
    const target = await core.repo.memberById(cmd.ws.id, input.targetUserId);
    if (!target) throw new DomainError('USER_NOT_FOUND');
    const existing = await core.repo.dmByKey(cmd.ws.id, dmKeyOf([actor.userId, target.userId]));
    if (existing) {
      // The pair's DM already exists: answer it, and bring it back into the actor's list if they had hidden it.
      if (await core.repo.isHidden(existing.id, actor.userId)) {
        await cmd.record([
          cmd.event('dm.reopened', {
            workspaceId: cmd.ws.id,
            channelId: existing.id,
            userId: actor.userId,
            channel: existing,
          }),
        ]);
      }
      return existing;
    }
    const channel: Channel = {
      id: newId(),
      workspaceId: cmd.ws.id,
      name: DM_NAME,
      type: 'dm',
      isPrivate: true,
      memberIds: [actor.userId, target.userId],
      createdBy: actor.userId,
      createdAt: core.now().toISOString(),
    };
    await cmd.record([cmd.event('channel.created', { workspaceId: cmd.ws.id, channel })]);
    return channel;
  });
}

export async function deleteDm(
  core: RoomCore,
  actor: SessionActor,
  input: z.output<typeof DeleteDmSchema>,
): Promise<{ channelId: string }> {
  return core.userCommand(actor, C.deleteDm, input.workspaceId, async (cmd) => {
    const channel = await core.repo.channelById(cmd.ws.id, input.channelId);
    if (!channel) throw new DomainError('CHANNEL_NOT_FOUND');
    checkDmMember(channel, actor.userId);
    // Hiding twice changes nothing: the caller's sockets were told the first time.
    if (!(await core.repo.isHidden(channel.id, actor.userId))) {
      await cmd.record([
        cmd.event('dm.hidden', { workspaceId: cmd.ws.id, channelId: channel.id, userId: actor.userId }),
      ]);
    }
    return { channelId: channel.id };
  });
}

/**
 * Policy: a message in a DM reopens it for every member who hid it before the message was sent. Idempotent (a
 * member with nothing hidden gets nothing), and a replayed older message does not reopen a DM hidden after it,
 * because the hide's time is compared with the message's. Returns how many members it reopened the DM for.
 */
export async function reopenAfterMessage(core: RoomCore, message: Message): Promise<number> {
  const sentAt = new Date(message.timestamp);
  // The common case (a topic channel, or nobody hid the DM) costs one indexed query and no lock.
  if ((await core.repo.hiddenBefore(message.channelId, sentAt)).length === 0) return 0;
  const reopened = await core.systemCommand(message.workspaceId, async (cmd) => {
    const channel = await core.repo.channelById(cmd.ws.id, message.channelId);
    if (!channel || channel.type !== 'dm') return 0;
    const hidden = await core.repo.hiddenBefore(channel.id, sentAt);
    await cmd.record(
      hidden.map((userId) =>
        cmd.event('dm.reopened', { workspaceId: cmd.ws.id, channelId: channel.id, userId, channel }),
      ),
    );
    return hidden.length;
  });
  return reopened ?? 0;
}
