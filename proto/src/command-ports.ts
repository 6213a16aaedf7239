/**
 * What the owners and the gateway derive from the command table (commands.ts): the actor a command runs as, which
 * commands the gateway dispatches from their row, and each owner's port (one method per command, its answer read from
 * the row's ack). Apart from the table so the table reads as its rows.
 */
import { z } from 'zod';
import {
  COMMANDS,
  type ClientAcks,
  type ClientEventName,
  type Commands,
  type ParsedClientPayload,
} from './commands.ts';
import type { CommandOwner, CommandRow } from './command-row.ts';

/** Who is acting, as established by join-workspace on this connection (never a client payload's say). */
export const SessionActorSchema = z.object({
  workspaceId: z.string().min(1),
  userId: z.string().min(1),
  username: z.string().min(1),
});
export type SessionActor = z.infer<typeof SessionActorSchema>;
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
