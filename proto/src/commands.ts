/**
 * THE socket command table: one row per command a client sends (docs/adding-a-command.md). Everything else about a
 * command is read from its row:
 *  - the gateway parses the payload with `schema` and refuses an event without a row (CLIENT_EVENTS);
 *  - `owner` room or messaging: that service's port has one method per command, named after it (renameChannel for
 *    rename-channel), taking (actor, payload); its internal route and the gateway's distributed client are made from
 *    the table (services/platform/src/command-rpc.ts), and without `gatewayWork` the gateway dispatches the command
 *    from the row alone (services/gateway/src/commands.ts);
 *  - `writes`: refused during maintenance (services/platform/src/maintenance.ts);
 *  - its authorization row is SOCKET_AUTHZ under the same name (proto/src/authz.ts, typed to have one for every row);
 *    its ack type is ClientAcks under the same name (proto/src/socket-answers.ts).
 */
import { z } from 'zod';
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
import type { ClientAcks } from './socket-answers.ts';

/** Who is acting, as established by join-workspace on this connection (never a client payload's say). */
export const SessionActorSchema = z.object({
  workspaceId: z.string().min(1),
  userId: z.string().min(1),
  username: z.string().min(1),
});
export type SessionActor = z.infer<typeof SessionActorSchema>;

/** The services whose port serves commands; `gateway`: the gateway's own handler (it asks the room to authorize). */
export type CommandOwner = 'room' | 'messaging' | 'gateway';

export interface CommandRow {
  readonly schema: z.ZodTypeAny;
  readonly owner: CommandOwner;
  /** it changes durable state (an event in the log or a stored row): refused while maintenance is on */
  readonly writes: boolean;
  /** the ack's field that carries the owner's answer; absent: the answer is the ack's data itself */
  readonly answer?: string;
  /** the gateway does work of its own around the owner's call (a hand-written handler in gateway/src/commands.ts) */
  readonly gatewayWork?: true;
  /** the payload's userId names the member acted on; absent: a userId in it must be the actor's own (P5) */
  readonly userIdNamesTarget?: true;
}

export const COMMANDS = {
  // the room service checks the token; the gateway keeps the session and tells presence
  [C.joinWorkspace]: { schema: JoinWorkspaceSchema, owner: 'gateway', writes: false }, // joining as new: HTTP
  [C.createChannel]: { schema: CreateChannelSchema, owner: 'room', writes: true, answer: 'channel' },
  [C.joinChannel]: { schema: JoinChannelSchema, owner: 'messaging', writes: false, gatewayWork: true }, // history
  [C.sendMessage]: { schema: SendMessageSchema, owner: 'messaging', writes: true, answer: 'message' },
  [C.fetchMessages]: { schema: FetchMessagesSchema, owner: 'messaging', writes: false },
  [C.syncMessages]: { schema: SyncMessagesSchema, owner: 'messaging', writes: false },
  [C.leaveWorkspace]: { schema: LeaveWorkspaceSchema, owner: 'room', writes: true, gatewayWork: true }, // member.left
  [C.createDmChannel]: { schema: CreateDmChannelSchema, owner: 'room', writes: true, answer: 'channel' },
  [C.deleteDm]: { schema: DeleteDmSchema, owner: 'room', writes: true },
  [C.deleteChannel]: { schema: DeleteChannelSchema, owner: 'room', writes: true },
  [C.renameChannel]: { schema: RenameChannelSchema, owner: 'room', writes: true, answer: 'channel' },
  [C.updateChannelMembers]: { schema: UpdateChannelMembersSchema, owner: 'room', writes: true, answer: 'channel' },
  [C.editMessage]: { schema: EditMessageSchema, owner: 'messaging', writes: true, answer: 'message' },
  [C.deleteMessage]: { schema: DeleteMessageSchema, owner: 'messaging', writes: true },
  [C.addReaction]: { schema: AddReactionSchema, owner: 'messaging', writes: true },
  [C.markRead]: { schema: MarkReadSchema, owner: 'messaging', writes: true }, // the read position is stored
  [C.fetchChannelSummaries]: {
    schema: FetchChannelSummariesSchema,
    owner: 'messaging',
    writes: false,
    answer: 'summaries',
  },
  [C.searchMessages]: { schema: SearchMessagesSchema, owner: 'messaging', writes: false, answer: 'messages' },
  // typing and presence: the room authorizes (authorizePresence), the presence store keeps them (they expire)
  [C.typingStart]: { schema: TypingStartSchema, owner: 'gateway', writes: false },
  [C.typingStop]: { schema: TypingStopSchema, owner: 'gateway', writes: false },
  [C.updatePresence]: { schema: UpdatePresenceSchema, owner: 'gateway', writes: false },
  [C.fetchOnlineUsers]: { schema: FetchOnlineUsersSchema, owner: 'gateway', writes: false }, // a big room's list
  // later commands of the connection act under the new name: the gateway updates its session
  [C.updateProfile]: { schema: UpdateProfileSchema, owner: 'room', writes: true, answer: 'user', gatewayWork: true },
  // room administration (room-admin.ts); the fan-out tells the room (workspace-updated, kicked, ...)
  [C.renameWorkspace]: { schema: RenameWorkspaceSchema, owner: 'room', writes: true, answer: 'workspace' },
  [C.setWorkspacePassword]: { schema: SetWorkspacePasswordSchema, owner: 'room', writes: true, answer: 'workspace' },
  [C.setWorkspaceMaxUsers]: { schema: SetWorkspaceMaxUsersSchema, owner: 'room', writes: true, answer: 'workspace' },
  [C.extendWorkspace]: { schema: ExtendWorkspaceSchema, owner: 'room', writes: true, answer: 'workspace' },
  [C.deleteWorkspace]: { schema: DeleteWorkspaceSchema, owner: 'room', writes: true },
  [C.kickUser]: { schema: KickUserSchema, owner: 'room', writes: true, userIdNamesTarget: true },
  [C.broadcastTheme]: { schema: BroadcastThemeSchema, owner: 'room', writes: true, answer: 'theme' },
  [C.setMemberRole]: {
    schema: SetMemberRoleSchema,
    owner: 'room',
    writes: true,
    answer: 'user',
    userIdNamesTarget: true,
  },
  // calls: relayed by the gateway (calls.ts), never recorded (docs/calls.md); the room authorizes (authorizeCall)
  [C.startCall]: { schema: StartCallSchema, owner: 'gateway', writes: false },
  [C.acceptCall]: { schema: AcceptCallSchema, owner: 'gateway', writes: false },
  [C.rejectCall]: { schema: RejectCallSchema, owner: 'gateway', writes: false },
  [C.endCall]: { schema: EndCallSchema, owner: 'gateway', writes: false },
  [C.webrtcSignal]: { schema: WebrtcSignalSchema, owner: 'gateway', writes: false },
} as const satisfies Record<string, CommandRow>;

type Commands = typeof COMMANDS;
export type ClientEventName = keyof Commands;
export type ClientPayload<E extends ClientEventName> = z.input<Commands[E]['schema']>;
export type ParsedClientPayload<E extends ClientEventName> = z.output<Commands[E]['schema']>;

/** Every client event's payload schema: the gateway refuses any event that is not here. */
export const CLIENT_EVENTS = Object.fromEntries(Object.entries(COMMANDS).map(([name, row]) => [name, row.schema])) as {
  readonly [E in ClientEventName]: Commands[E]['schema'];
};

export type ClientEvents = {
  [E in ClientEventName]: (payload: ClientPayload<E>, ack: (a: ClientAcks[E]) => void) => void;
};

/** The commands the gateway dispatches from their row alone: owned by room or messaging, no gateway work. */
export type DispatchedCommand = {
  [E in ClientEventName]: Commands[E] extends { gatewayWork: true } | { owner: 'gateway' } ? never : E;
}[ClientEventName];
/** The commands the gateway has a handler of its own for (services/gateway/src/commands.ts). */
export type GatewayCommand = Exclude<ClientEventName, DispatchedCommand>;
export function dispatchedCommands(): DispatchedCommand[] {
  return (Object.keys(COMMANDS) as ClientEventName[]).filter((e) => {
    const row: CommandRow = COMMANDS[e];
    return row.owner !== 'gateway' && !row.gatewayWork;
  }) as DispatchedCommand[];
}

// ---- the owners' ports, derived ----

type Camel<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;
/** The port method that serves a command: its name in camelCase (rename-channel: renameChannel). */
export type CommandMethod<E extends ClientEventName> = Camel<E>;
export function commandMethod<E extends ClientEventName>(name: E): CommandMethod<E> {
  return name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()) as CommandMethod<E>;
}

/** The commands a service's port serves. */
export type CommandsOf<O extends CommandOwner> = {
  [E in ClientEventName]: Commands[E]['owner'] extends O ? E : never;
}[ClientEventName];
export function commandsOf<O extends CommandOwner>(owner: O): CommandsOf<O>[] {
  return (Object.keys(COMMANDS) as ClientEventName[]).filter((e) => COMMANDS[e].owner === owner) as CommandsOf<O>[];
}

export type AckData<E extends ClientEventName> = Omit<Extract<ClientAcks[E], { success: true }>, 'success'>;
/** What the owner answers: the ack's data, or the one field of it the row names. A command with nothing to say: void. */
export type CommandAnswer<E extends ClientEventName> = Commands[E] extends { answer: infer K extends string }
  ? K extends keyof AckData<E>
    ? AckData<E>[K]
    : never
  : keyof AckData<E> extends never
    ? void
    : AckData<E>;

/** A service's port: one method per command it owns, (actor, parsed payload) -> its answer. */
export type CommandPort<O extends CommandOwner> = {
  [E in CommandsOf<O> as CommandMethod<E>]: (
    actor: SessionActor,
    input: ParsedClientPayload<E>,
  ) => Promise<CommandAnswer<E>>;
};

/** The internal route of a command (distributed mode): POST { actor, input } on the owner's internal listener. */
export function commandPath(name: ClientEventName): string {
  return `/internal/${name}`;
}
