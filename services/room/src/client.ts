/** RoomApi over HTTP, for the gateway in distributed mode: each method posts { actor, input } to its internal route. */
import {
  INTERNAL,
  type RoomApi,
  type SessionActor,
  type Channel,
  type RoomTheme,
  type RoomUser,
  type Workspace,
  type WorkspaceUpdate,
} from '@ephemera/proto';
import { serviceClient, type ServiceCredential } from '@ephemera/platform';

type Input<M extends keyof RoomApi> = Parameters<RoomApi[M]>[1];

export class RoomClient implements RoomApi {
  private readonly call: ReturnType<typeof serviceClient>;
  constructor(baseUrl: string, credential: ServiceCredential) {
    this.call = serviceClient(baseUrl, credential, undefined, { batchPath: INTERNAL.roomBatch });
  }

  authenticate(input: Parameters<RoomApi['authenticate']>[0]) {
    return this.call<{ user: RoomUser; workspace: Workspace }>(INTERNAL.authenticate, input);
  }
  createChannel(actor: SessionActor, input: Input<'createChannel'>) {
    return this.call<Channel>(INTERNAL.createChannel, { actor, input });
  }
  authorizePresence(actor: SessionActor, input: Input<'authorizePresence'>) {
    return this.call<{ channel: Channel | null }>(INTERNAL.authorizePresence, { actor, input });
  }
  createDmChannel(actor: SessionActor, input: Input<'createDmChannel'>) {
    return this.call<Channel>(INTERNAL.createDmChannel, { actor, input });
  }
  deleteDm(actor: SessionActor, input: Input<'deleteDm'>) {
    return this.call<{ channelId: string }>(INTERNAL.deleteDm, { actor, input });
  }
  deleteChannel(actor: SessionActor, input: Input<'deleteChannel'>) {
    return this.call<{ channelId: string }>(INTERNAL.deleteChannel, { actor, input });
  }
  renameChannel(actor: SessionActor, input: Input<'renameChannel'>) {
    return this.call<Channel>(INTERNAL.renameChannel, { actor, input });
  }
  updateChannelMembers(actor: SessionActor, input: Input<'updateChannelMembers'>) {
    return this.call<Channel>(INTERNAL.updateChannelMembers, { actor, input });
  }
  updateProfile(actor: SessionActor, input: Input<'updateProfile'>) {
    return this.call<RoomUser>(INTERNAL.updateProfile, { actor, input });
  }
  async leaveWorkspace(actor: SessionActor) {
    await this.call<unknown>(INTERNAL.leaveWorkspace, { actor, input: {} });
  }
  renameWorkspace(actor: SessionActor, input: Input<'renameWorkspace'>) {
    return this.call<WorkspaceUpdate>(INTERNAL.renameWorkspace, { actor, input });
  }
  setWorkspacePassword(actor: SessionActor, input: Input<'setWorkspacePassword'>) {
    return this.call<WorkspaceUpdate>(INTERNAL.setWorkspacePassword, { actor, input });
  }
  setWorkspaceMaxUsers(actor: SessionActor, input: Input<'setWorkspaceMaxUsers'>) {
    return this.call<WorkspaceUpdate>(INTERNAL.setWorkspaceMaxUsers, { actor, input });
  }
  extendWorkspace(actor: SessionActor, input: Input<'extendWorkspace'>) {
    return this.call<WorkspaceUpdate>(INTERNAL.extendWorkspace, { actor, input });
  }
  deleteWorkspace(actor: SessionActor) {
    return this.call<{ workspaceId: string }>(INTERNAL.deleteWorkspace, { actor, input: {} });
  }
  kickUser(actor: SessionActor, input: Input<'kickUser'>) {
    return this.call<{ userId: string }>(INTERNAL.kickUser, { actor, input });
  }
  setMemberRole(actor: SessionActor, input: Input<'setMemberRole'>) {
    return this.call<RoomUser>(INTERNAL.setMemberRole, { actor, input });
  }
  broadcastTheme(actor: SessionActor, input: Input<'broadcastTheme'>) {
    return this.call<RoomTheme>(INTERNAL.broadcastTheme, { actor, input });
  }
  authorizeCall(actor: SessionActor, input: Input<'authorizeCall'>) {
    return this.call<{ workspaceId: string; channelId: string; memberIds: string[] }>(INTERNAL.authorizeCall, {
      actor,
      input,
    });
  }
  /** internal only: billing and tests inside the cluster */
  changeTier(input: Parameters<RoomApi['changeTier']>[0]) {
    return this.call<WorkspaceUpdate>(INTERNAL.changeTier, input);
  }
}
