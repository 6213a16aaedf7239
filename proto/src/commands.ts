/**
 * THE socket command table: one row per command a client sends (docs/adding-a-command.md). Everything else about a
 * command is read from its row:
 *  - the gateway parses the payload with `schema` and refuses an event without a row (CLIENT_EVENTS);
 *  - `owner` room or messaging: that service's port has one method per command, named after it (renameChannel for
 *    rename-channel), taking (actor, payload); its internal route and the gateway's distributed client are made from
 *    the table (services/platform/src/command-rpc.ts), and without `gatewayWork` the gateway dispatches the command
 *    from the row alone (services/gateway/src/commands.ts);
 *  - `writes`: refused during maintenance (services/platform/src/maintenance.ts);
 *  - `ack`: the ack's data on success (`ack<{ channel: Channel }>()`, `ack()` for none), a type only: ClientAcks is made
 *    from the rows (what the server answers, the client receives and an owner's port returns); the shapes it names
 *    are in socket-answers.ts and models.ts;
 *  - its authorization row is SOCKET_AUTHZ under the same name (proto/src/authz.ts, typed to have one for every row).
 */
import type { z } from 'zod';
import { C } from './names.ts';
import {
  JoinWorkspaceSchema,
  CreateChannelSchema,
  JoinChannelSchema,
  SendMessageSchema,
  FetchMessagesSchema,
  SyncMessagesSchema,
  LeaveWorkspaceSchema,
  CreateDmChannelSchema,
  DeleteDmSchema,
  DeleteChannelSchema,
  RenameChannelSchema,
  UpdateChannelMembersSchema,
  EditMessageSchema,
  DeleteMessageSchema,
  AddReactionSchema,
  MarkReadSchema,
  FetchChannelSummariesSchema,
  SearchMessagesSchema,
  TypingStartSchema,
  TypingStopSchema,
  UpdatePresenceSchema,
  FetchOnlineUsersSchema,
  UpdateProfileSchema,
  RenameWorkspaceSchema,
  SetWorkspacePasswordSchema,
  SetWorkspaceMaxUsersSchema,
  ExtendWorkspaceSchema,
  DeleteWorkspaceSchema,
  KickUserSchema,
  BroadcastThemeSchema,
  SetMemberRoleSchema,
  StartCallSchema,
  AcceptCallSchema,
  RejectCallSchema,
  EndCallSchema,
  WebrtcSignalSchema,
} from './socket.ts';
import type { CallType, IceServer } from './socket.ts';
import type { Channel, ChannelSummary, Message, RoomUser, Workspace } from './models.ts';
import { ack, type AckType, type CommandRow } from './command-row.ts';
import type { Ack, OnlinePage, PresenceStatus, RoomTheme, WorkspaceUpdate } from './socket-answers.ts';

export const COMMANDS = {
  // the room service checks the token; the gateway keeps the session and tells presence (joining as new: HTTP)
  [C.joinWorkspace]: {
    schema: JoinWorkspaceSchema,
    owner: 'gateway',
    writes: false,
    ack: ack<{ user: RoomUser; workspace: Workspace; message?: string }>(),
  },
  [C.createChannel]: {
    schema: CreateChannelSchema,
    owner: 'room',
    writes: true,
    answer: 'channel',
    ack: ack<{ channel: Channel }>(),
  },
  // the gateway sends the history
  [C.joinChannel]: {
    schema: JoinChannelSchema,
    owner: 'messaging',
    writes: false,
    gatewayWork: true,
    ack: ack<{ channelId: string; messages: Message[]; hasMore: boolean }>(),
  },
  [C.sendMessage]: {
    schema: SendMessageSchema,
    owner: 'messaging',
    writes: true,
    answer: 'message',
    ack: ack<{ message: Message }>(),
  },
  [C.fetchMessages]: {
    schema: FetchMessagesSchema,
    owner: 'messaging',
    writes: false,
    ack: ack<{ channelId: string; messages: Message[]; hasMore: boolean }>(),
  },
  [C.syncMessages]: {
    schema: SyncMessagesSchema,
    owner: 'messaging',
    writes: false,
    ack: ack<{ messages: Message[]; hasMore: boolean; lastSeq: number }>(),
  },
  [C.leaveWorkspace]: { schema: LeaveWorkspaceSchema, owner: 'room', writes: true, gatewayWork: true, ack: ack() }, // member.left
  [C.createDmChannel]: {
    schema: CreateDmChannelSchema,
    owner: 'room',
    writes: true,
    answer: 'channel',
    ack: ack<{ channel: Channel }>(),
  },
  [C.deleteDm]: { schema: DeleteDmSchema, owner: 'room', writes: true, ack: ack<{ channelId: string }>() },
  [C.deleteChannel]: { schema: DeleteChannelSchema, owner: 'room', writes: true, ack: ack<{ channelId: string }>() },
  [C.renameChannel]: {
    schema: RenameChannelSchema,
    owner: 'room',
    writes: true,
    answer: 'channel',
    ack: ack<{ channel: Channel }>(),
  },
  [C.updateChannelMembers]: {
    schema: UpdateChannelMembersSchema,
    owner: 'room',
    writes: true,
    answer: 'channel',
    ack: ack<{ channel: Channel }>(),
  },
  [C.editMessage]: {
    schema: EditMessageSchema,
    owner: 'messaging',
    writes: true,
    answer: 'message',
    ack: ack<{ message: Message }>(),
  },
  [C.deleteMessage]: {
    schema: DeleteMessageSchema,
    owner: 'messaging',
    writes: true,
    ack: ack<{ messageId: string }>(),
  },
  [C.addReaction]: {
    schema: AddReactionSchema,
    owner: 'messaging',
    writes: true,
    ack: ack<{ messageId: string; reactions: Record<string, string[]> }>(),
  },
  // writes: the read position is stored
  [C.markRead]: {
    schema: MarkReadSchema,
    owner: 'messaging',
    writes: true,
    ack: ack<{ channelId: string; seq: number }>(),
  },
  [C.fetchChannelSummaries]: {
    schema: FetchChannelSummariesSchema,
    owner: 'messaging',
    writes: false,
    answer: 'summaries',
    ack: ack<{ summaries: ChannelSummary[] }>(),
  },
  [C.searchMessages]: {
    schema: SearchMessagesSchema,
    owner: 'messaging',
    writes: false,
    answer: 'messages',
    ack: ack<{ messages: Message[] }>(),
  },
  // typing and presence: the room authorizes (authorizePresence), the presence store keeps them (they expire)
  [C.typingStart]: { schema: TypingStartSchema, owner: 'gateway', writes: false, ack: ack() },
  [C.typingStop]: { schema: TypingStopSchema, owner: 'gateway', writes: false, ack: ack() },
  [C.updatePresence]: {
    schema: UpdatePresenceSchema,
    owner: 'gateway',
    writes: false,
    ack: ack<{ status: PresenceStatus }>(),
  },
  [C.fetchOnlineUsers]: { schema: FetchOnlineUsersSchema, owner: 'gateway', writes: false, ack: ack<OnlinePage>() }, // a big room's list
  // later commands of the connection act under the new name: the gateway updates its session
  [C.updateProfile]: {
    schema: UpdateProfileSchema,
    owner: 'room',
    writes: true,
    answer: 'user',
    gatewayWork: true,
    ack: ack<{ user: RoomUser }>(),
  },
  // room administration (room-admin.ts); the fan-out tells the room (workspace-updated, kicked, ...)
  [C.renameWorkspace]: {
    schema: RenameWorkspaceSchema,
    owner: 'room',
    writes: true,
    answer: 'workspace',
    ack: ack<{ workspace: WorkspaceUpdate }>(),
  },
  [C.setWorkspacePassword]: {
    schema: SetWorkspacePasswordSchema,
    owner: 'room',
    writes: true,
    answer: 'workspace',
    ack: ack<{ workspace: WorkspaceUpdate }>(),
  },
  [C.setWorkspaceMaxUsers]: {
    schema: SetWorkspaceMaxUsersSchema,
    owner: 'room',
    writes: true,
    answer: 'workspace',
    ack: ack<{ workspace: WorkspaceUpdate }>(),
  },
  [C.extendWorkspace]: {
    schema: ExtendWorkspaceSchema,
    owner: 'room',
    writes: true,
    answer: 'workspace',
    ack: ack<{ workspace: WorkspaceUpdate }>(),
  },
  [C.deleteWorkspace]: {
    schema: DeleteWorkspaceSchema,
    owner: 'room',
    writes: true,
    ack: ack<{ workspaceId: string }>(),
  },
  [C.kickUser]: {
    schema: KickUserSchema,
    owner: 'room',
    writes: true,
    userIdNamesTarget: true,
    ack: ack<{ userId: string }>(),
  },
  [C.broadcastTheme]: {
    schema: BroadcastThemeSchema,
    owner: 'room',
    writes: true,
    answer: 'theme',
    ack: ack<{ theme: RoomTheme }>(),
  },
  [C.setMemberRole]: {
    schema: SetMemberRoleSchema,
    owner: 'room',
    writes: true,
    answer: 'user',
    userIdNamesTarget: true,
    ack: ack<{ user: RoomUser }>(),
  },
  // calls: relayed by the gateway (calls.ts), never recorded (docs/calls.md); the room authorizes (authorizeCall)
  // the caller's ICE servers (TURN credentials valid for the call) and how long the callee has to answer
  [C.startCall]: {
    schema: StartCallSchema,
    owner: 'gateway',
    writes: false,
    ack: ack<{ channelId: string; callType: CallType; iceServers: IceServer[]; ringTimeoutMs: number }>(),
  },
  [C.acceptCall]: {
    schema: AcceptCallSchema,
    owner: 'gateway',
    writes: false,
    ack: ack<{ channelId: string; callType: CallType; iceServers: IceServer[] }>(),
  },
  [C.rejectCall]: { schema: RejectCallSchema, owner: 'gateway', writes: false, ack: ack<{ channelId: string }>() },
  [C.endCall]: { schema: EndCallSchema, owner: 'gateway', writes: false, ack: ack<{ channelId: string }>() },
  [C.webrtcSignal]: { schema: WebrtcSignalSchema, owner: 'gateway', writes: false, ack: ack() },
} as const satisfies Record<string, CommandRow>;

export type Commands = typeof COMMANDS;
export type ClientEventName = keyof Commands;
export type ClientPayload<E extends ClientEventName> = z.input<Commands[E]['schema']>;
export type ParsedClientPayload<E extends ClientEventName> = z.output<Commands[E]['schema']>;

/** Every client event's payload schema: the gateway refuses any event that is not here. */
export const CLIENT_EVENTS = Object.fromEntries(Object.entries(COMMANDS).map(([name, row]) => [name, row.schema])) as {
  readonly [E in ClientEventName]: Commands[E]['schema'];
};

/** A command's ack data on success, from its row. */
export type AckOf<E extends ClientEventName> = Commands[E]['ack'] extends AckType<infer T> ? T : never;
/** Every command's ack, from its row: { success: true, ...its data } or an ErrorBody with success: false. */
export type ClientAcks = { [E in ClientEventName]: Ack<AckOf<E>> };

export type ClientEvents = {
  [E in ClientEventName]: (payload: ClientPayload<E>, ack: (a: ClientAcks[E]) => void) => void;
};
