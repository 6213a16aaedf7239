/**
 * A service's socket commands as internal routes and their client, made from the command table
 * (proto/src/commands.ts): for every command the service owns, POST commandPath(name) with { actor, input }, the
 * input parsed by the command's own schema (the one the gateway parsed the payload with), answered by the port's
 * method of the same name. Unlike internal-rpc.ts's ports these go through the owner's batch route: the gateway's
 * calls of one event-loop turn leave as one request (internal-routes.ts), as sends, reads and marks do in a busy room.
 */
import type express from 'express';
import {
  COMMANDS,
  commandMethod,
  commandPath,
  commandsOf,
  type CommandOwner,
  type CommandPort,
  type SessionActor,
} from '@ephemera/proto';
import { commandRoute } from './internal-routes.ts';
import type { ServiceCall } from './service-client.ts';

type AnyMethod = (actor: SessionActor, input: unknown) => Promise<unknown>;

/** The routes of every command `owner` serves, on its internal router (internalRouter: with the batch route). */
export function commandRoutes<O extends Exclude<CommandOwner, 'gateway'>>(
  router: express.Router,
  owner: O,
  port: CommandPort<O>,
): void {
  for (const name of commandsOf(owner)) {
    const method = (port as unknown as Record<string, AnyMethod>)[commandMethod(name)];
    commandRoute(router, commandPath(name), COMMANDS[name].schema, (actor, input) => method.call(port, actor, input));
  }
}

/** `owner`'s command port over its internal routes (distributed mode), on a service client with its batch path. */
export function commandClient<O extends Exclude<CommandOwner, 'gateway'>>(call: ServiceCall, owner: O): CommandPort<O> {
  const client: Record<string, AnyMethod> = {};
  for (const name of commandsOf(owner))
    client[commandMethod(name)] = (actor, input) => call<unknown>(commandPath(name), { actor, input });
  return client as unknown as CommandPort<O>;
}
