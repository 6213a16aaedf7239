/**
 * Property-based fuzz of this slice's socket events and HTTP routes (docs/product/security.md S10): arbitrary
 * payloads, both
 * from a stranger and from a joined member, never crash a service, never get a success for a malformed payload,
 * and the service keeps answering correctly afterwards.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import fc from 'fast-check';
import { API, C, CLIENT_EVENTS } from '@ephemera/proto';
import { http, connect, request, createRoom, socketJoin, clientId } from '../helpers/clients.ts';

export function fuzzSuite(name: string, start: () => Promise<{ url: string; stop(): Promise<void> }>) {
  describe(`fuzz: ${name}`, () => {
    let target: { url: string; stop(): Promise<void> };
    beforeAll(async () => {
      target = await start();
    });
    afterAll(async () => {
      await target?.stop();
    });

    const anyJson = fc.oneof(
      fc.jsonValue(),
      fc.dictionary(
        fc.constantFrom(
          'workspaceId',
          'channelId',
          'content',
          'clientMessageId',
          'name',
          'username',
          'userToken',
          'type',
          'isPrivate',
          'beforeSeq',
          'afterSeq',
          'limit',
          '__proto__',
          'constructor',
        ),
        fc.oneof(
          fc.string(),
          fc.integer(),
          fc.double(),
          fc.boolean(),
          fc.constant(null),
          fc.array(fc.string()),
          fc.object(),
        ),
      ),
    );

    it('random socket payloads for every event are refused cleanly, from a stranger and from a member', async () => {
      const room = await createRoom(target.url);
      const member = await socketJoin(target.url, room.workspaceId, 'alice', room.userToken);
      const stranger = await connect(target.url);
      const events = [...Object.keys(CLIENT_EVENTS), 'connect', 'disconnecting', 'hack', '__proto__', ''];
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...events), anyJson, fc.boolean(), async (event, payload, asMember) => {
          const socket = asMember ? member.socket : stranger;
          if (event === 'connect' || event === 'disconnecting') return; // reserved names: the client library refuses to emit them
          const ack: any = await socket
            .timeout(5000)
            .emitWithAck(event, payload)
            .catch(() => ({ timeout: true }));
          expect(ack.timeout).toBeUndefined();
          expect(typeof ack.success).toBe('boolean');
          if (!ack.success) expect(typeof ack.message).toBe('string');
        }),
        { numRuns: 300 },
      );
      // Still serving, and the member's session still works.
      const created = await request(member.socket, C.createChannel, {
        workspaceId: room.workspaceId,
        name: 'after-fuzz',
        type: 'topic',
        isPrivate: false,
      });
      expect(created.success).toBe(true);
      if (!created.success) return;
      const sent = await request(member.socket, C.sendMessage, {
        clientMessageId: clientId(),
        channelId: created.channel.id,
        content: 'still here',
        type: 'text',
      });
      expect(sent.success).toBe(true);
      member.socket.close();
      stranger.close();
    });

    it('random HTTP bodies and path segments never crash the API', async () => {
      const room = await createRoom(target.url);
      const segment = fc.string({ minLength: 1, maxLength: 80 }).map((s) => encodeURIComponent(s));
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('create', 'join', 'checkName', 'roomByName', 'info', 'checkUsername'),
          segment,
          anyJson,
          async (route, seg, body) => {
            const res =
              route === 'create'
                ? await http(target.url, API.create(), { body })
                : route === 'join'
                  ? await http(target.url, API.join(Math.random() < 0.5 ? room.workspaceId : seg), { body })
                  : route === 'checkName'
                    ? await http(target.url, `/api/workspaces/check-name/${seg}`)
                    : route === 'roomByName'
                      ? await http(target.url, `/api/workspaces/room/${seg}`)
                      : route === 'info'
                        ? await http(target.url, `/api/workspaces/${seg}/info`)
                        : await http(target.url, `/api/workspaces/${room.workspaceId}/check-username/${seg}`);
            expect(res.status).toBeLessThan(500);
          },
        ),
        { numRuns: 300 },
      );
      const health = await http(target.url, '/healthz');
      expect(health.status).toBe(200);
      expect((await http(target.url, API.checkName(room.name))).body.available).toBe(false);
    });
  });
}
