/**
 * Calls (docs/product/calls.md C1, C4): the room service owns who may call whom, because it owns membership, DMs and
 * the room's tier.
 * authorizeCall decides nothing and records nothing (a call is not a domain event of the room): the gateway's call module
 * (services/gateway/src/calls.ts) asks it before ringing or answering, and keeps the call itself in the
 * ephemeral store.
 */
import { DomainError, ENTITLEMENTS, SERVICE_TEXTS, type AuthorizeCallInput, type SessionActor } from '@ephemera/proto';
import type { RoomCore } from './core.ts';
import { checkDmMember } from './rules.ts';

export async function authorizeCall(
  core: RoomCore,
  actor: SessionActor,
  input: AuthorizeCallInput,
): Promise<{ workspaceId: string; channelId: string; memberIds: string[] }> {
  const ws = await core.liveWorkspace(actor.workspaceId);
  await core.authorizeEvent(ws, actor.userId, input.event);
  const channel = await core.repo.channelById(ws.id, input.channelId);
  if (!channel) throw new DomainError('CHANNEL_NOT_FOUND');
  checkDmMember(channel, actor.userId);
  if (input.peerId !== undefined) {
    if (input.peerId === actor.userId) throw new DomainError('VALIDATION', SERVICE_TEXTS.callSelf);
    // The peer is the DM's other member, and still in the room (a kicked or departed member's DM stays visible).
    if (!channel.memberIds.includes(input.peerId)) throw new DomainError('NOT_DM_MEMBER');
    if (!(await core.repo.memberById(ws.id, input.peerId))) throw new DomainError('USER_NOT_FOUND');
  }
  if (input.callType) {
    const allowed = ENTITLEMENTS[ws.tier];
    if (input.callType === 'video' && !allowed.videoCalls) throw new DomainError('VIDEO_CALLS_UNAVAILABLE');
    if (input.callType === 'audio' && !allowed.voiceCalls) throw new DomainError('VOICE_CALLS_UNAVAILABLE');
  }
  return { workspaceId: ws.id, channelId: channel.id, memberIds: channel.memberIds };
}
