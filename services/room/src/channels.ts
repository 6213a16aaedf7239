/**
 * Topic channels: create (public, or private with the members its creator picks), rename, delete, change a private
 * channel's members; and the check of typing and presence events (authorizePresence).
 * Who may call each is SOCKET_AUTHZ (proto/src/authz.ts); the resource rules are checked here.
 */
import {
  C,
  DomainError,
  SERVICE_TEXTS,
  SOCKET_AUTHZ,
  authorizeCaller,
  channelVisibleTo,
  type AuthorizePresenceInput,
  type Channel,
  type CreateChannelSchema,
  type DeleteChannelSchema,
  type RenameChannelSchema,
  type SessionActor,
  type UpdateChannelMembersSchema,
} from '@ephemera/proto';
import { newId } from '@ephemera/platform';
import type { z } from 'zod';
import type { RoomCommand, RoomCore } from './core.ts';
import { changeMembers, initialMembers, requireTopic } from './rules.ts';

export async function createChannel(
  core: RoomCore,
  actor: SessionActor,
  input: z.output<typeof CreateChannelSchema>,
): Promise<Channel> {
  return core.userCommand(actor, C.createChannel, input.workspaceId, async (cmd) => {
    if (await core.repo.channelNameTaken(cmd.ws.id, input.name)) throw new DomainError('CHANNEL_NAME_TAKEN');
    const memberIds = initialMembers(
      input.isPrivate,
      actor.userId,
      input.memberIds,
      await core.repo.memberIds(cmd.ws.id),
    );
    const channel: Channel = {
      id: newId(),
      workspaceId: cmd.ws.id,
      name: input.name,
      type: 'topic',
      isPrivate: input.isPrivate,
      memberIds,
      createdBy: actor.userId,
      createdAt: core.now().toISOString(),
    };
    await cmd.record([cmd.event('channel.created', { workspaceId: cmd.ws.id, channel })]);
    return channel;
  });
}

export async function renameChannel(
  core: RoomCore,
  actor: SessionActor,
  input: z.output<typeof RenameChannelSchema>,
): Promise<Channel> {
  return core.userCommand(actor, C.renameChannel, input.workspaceId, async (cmd) => {
    const channel = await managedChannel(core, cmd, actor, input.channelId);
    if (channel.name === input.newName) return channel; // unchanged: nothing to record (docs/product/rooms.md R24)
    if (await core.repo.channelNameTaken(cmd.ws.id, input.newName, channel.id))
      throw new DomainError('CHANNEL_NAME_TAKEN');
    const renamed: Channel = { ...channel, name: input.newName };
    await cmd.record([cmd.event('channel.renamed', { workspaceId: cmd.ws.id, channel: renamed })]);
    return renamed;
  });
}

export async function deleteChannel(
  core: RoomCore,
  actor: SessionActor,
  input: z.output<typeof DeleteChannelSchema>,
): Promise<{ channelId: string }> {
  return core.userCommand(actor, C.deleteChannel, input.workspaceId, async (cmd) => {
    const channel = await managedChannel(core, cmd, actor, input.channelId);
    // isPrivate and memberIds travel with the event: after it, nobody can look up who could see the channel.
    await cmd.record([
      cmd.event('channel.deleted', {
        workspaceId: cmd.ws.id,
        channelId: channel.id,
        isPrivate: channel.isPrivate,
        memberIds: channel.memberIds,
      }),
    ]);
    return { channelId: channel.id };
  });
}

export async function updateChannelMembers(
  core: RoomCore,
  actor: SessionActor,
  input: z.output<typeof UpdateChannelMembersSchema>,
): Promise<Channel> {
  return core.userCommand(actor, C.updateChannelMembers, input.workspaceId, async (cmd) => {
    const channel = await managedChannel(core, cmd, actor, input.channelId);
    if (!channel.isPrivate) throw new DomainError('VALIDATION', SERVICE_TEXTS.memberListPrivateOnly);
    const change = changeMembers(channel.memberIds, input.add, input.remove, await core.repo.memberIds(cmd.ws.id));
    if (change.added.length === 0 && change.removed.length === 0) return channel;
    const after: Channel = { ...channel, memberIds: change.memberIds };
    await cmd.record([
      cmd.event('channel.members-changed', {
        workspaceId: cmd.ws.id,
        channel: after,
        added: change.added,
        removed: change.removed,
      }),
    ]);
    return after;
  });
}

/**
 * The check of a presence event (typing-start, typing-stop, update-presence), made here for the presence service,
 * which keeps no room read model: the caller's role against the event's own row of the table, then for typing the
 * channel rule (CHANNEL_NOT_FOUND; NOT_A_MEMBER for a private channel or DM of others). One indexed query: the
 * gateway asks it for every typing event.
 */
export async function authorizePresence(
  core: RoomCore,
  actor: SessionActor,
  input: AuthorizePresenceInput,
): Promise<{ channel: Channel | null }> {
  await core.settled(actor.workspaceId);
  const channelId = 'channelId' in input ? input.channelId : null; // update-presence, fetch-online-users: the room only
  const found = await core.repo.callerAndChannel(actor.workspaceId, actor.userId, channelId, core.now());
  if (!found?.live) throw new DomainError('WORKSPACE_NOT_FOUND');
  authorizeCaller(SOCKET_AUTHZ[input.event], found.caller);
  if (channelId === null) return { channel: null };
  if (!found.channel) throw new DomainError('CHANNEL_NOT_FOUND');
  if (!channelVisibleTo(found.channel, actor.userId)) throw new DomainError('NOT_A_MEMBER');
  return { channel: found.channel };
}

/**
 * A topic channel an owner or admin manages: it exists in this room and the actor can see it (a private channel is
 * managed by its members only; to everyone else it does not show).
 */
async function managedChannel(
  core: RoomCore,
  cmd: RoomCommand,
  actor: SessionActor,
  channelId: string,
): Promise<Channel> {
  const channel = await core.repo.channelById(cmd.ws.id, channelId);
  if (!channel) throw new DomainError('CHANNEL_NOT_FOUND');
  requireTopic(channel);
  if (!channelVisibleTo(channel, actor.userId)) throw new DomainError('NOT_A_MEMBER');
  return channel;
}
