/**
 * A service's commands as internal routes and their client, both made from the command table (command-rpc.ts): the
 * client's method of a command reaches the owner's method of the same name with the actor and the input parsed by the
 * command's schema, through the batch route when several leave in one turn; a payload the schema refuses never
 * reaches the owner.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import express from 'express';
import { C, commandMethod, commandPath, commandsOf, type CommandPort, type SessionActor } from '@ephemera/proto';
import {
  closeServiceClients,
  commandClient,
  commandRoutes,
  createLogger,
  internalRouter,
  serveHttp,
  serviceClient,
  serviceCredential,
  type ServiceServer,
} from '../src/index.ts';

const BATCH = '/internal/messaging-test/batch';
const log = createLogger('test', 'silent');
const credential = serviceCredential('test', 'command-rpc-test-secret-'.repeat(2));
const requests: string[] = [];
const heard: { method: string; actor: SessionActor; input: unknown }[] = [];
let server: ServiceServer;
let client: CommandPort<'messaging'>;

/** messaging's port as a recorder: every method answers which one it was */
const port = new Proxy(
  {},
  {
    get: (_t, method: string) => async (actor: SessionActor, input: unknown) => {
      heard.push({ method, actor, input });
      return { answeredBy: method };
    },
  },
) as CommandPort<'messaging'>;

beforeAll(async () => {
  const seen = express.Router();
  seen.use((req, _res, next) => {
    requests.push(req.path);
    next();
  });
  const r = internalRouter(BATCH, log);
  commandRoutes(r, 'messaging', port);
  server = await serveHttp({
    name: 'command-rpc-test',
    port: 0,
    host: '127.0.0.1',
    logger: log,
    routers: [],
    ready: async () => true,
    internal: { port: 0, secret: credential.secret, routers: [seen, r] },
  });
  client = commandClient(serviceClient(server.internalUrl!, credential, undefined, { batchPath: BATCH }), 'messaging');
});
afterAll(async () => {
  await closeServiceClients();
  await server.stop();
});

const alice: SessionActor = { workspaceId: 'w'.repeat(16), userId: 'u'.repeat(16), username: 'alice' };

describe('commands over internal routes', () => {
  it('has a client method and a route for every command the owner serves, and no other', () => {
    const names = commandsOf('messaging');
    expect(names).toContain(C.sendMessage);
    expect(names).not.toContain(C.renameChannel);
    expect(Object.keys(client).sort()).toEqual(names.map(commandMethod).sort());
  });

  it("reaches the owner's method of the command's name, parsed by its schema; one turn's calls in one request", async () => {
    heard.length = 0;
    requests.length = 0;
    const [summaries, search] = await Promise.all([
      client.fetchChannelSummaries(alice, { workspaceId: alice.workspaceId }),
      client.searchMessages(alice, { workspaceId: alice.workspaceId, query: '  hello  ' }),
    ]);
    expect(summaries).toEqual({ answeredBy: 'fetchChannelSummaries' });
    expect(search).toEqual({ answeredBy: 'searchMessages' });
    expect(heard).toEqual([
      { method: 'fetchChannelSummaries', actor: alice, input: { workspaceId: alice.workspaceId } },
      // the route parses with search-messages' schema, which trims the query
      { method: 'searchMessages', actor: alice, input: { workspaceId: alice.workspaceId, query: 'hello' } },
    ]);
    expect(requests).toEqual([BATCH]);
  });

  it('a call alone goes to its own route', async () => {
    requests.length = 0;
    await client.markRead(alice, { channelId: 'c'.repeat(16), seq: 3 });
    expect(requests).toEqual([commandPath(C.markRead)]);
  });

  it('refuses an input its schema refuses, before the owner hears of it', async () => {
    heard.length = 0;
    await expect(
      client.searchMessages(alice, { workspaceId: alice.workspaceId, query: '   ' } as never),
    ).rejects.toMatchObject({ code: 'VALIDATION' });
    expect(heard).toEqual([]);
  });
});
