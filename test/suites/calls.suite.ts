/**
 * 1:1 calls (docs/product/calls.md) over the real protocol. In distributed mode the caller (alice) is on gateway A
 * and the callee
 * (bob) on gateway B, so every relay here crosses replicas through the bus. What is proved: relay of every call event
 * and of offer/answer/candidates, the answering tab only, busy refusals, the unanswered-call deadline, ends on hang-up,
 * disconnect and kick, the tier refused on a forged start-call, non-parties refused, bad payloads refused.
 */
import { createHmac } from 'node:crypto';
import { describe, it, expect, afterEach } from 'vitest';
import type { Socket } from 'socket.io-client';
import { C, ERRORS, S, SDP_MAX, type ClientAcks, type Tier } from '@ephemera/proto';
import { collect, next, request } from '../helpers/clients.ts';
import type { TargetRef } from './target-ref.ts';
import { TestRoom, expectRefused, type Person } from './channels.setup.ts';
import { CALL_TEST_ICE, CALL_TEST_RING_TIMEOUT_MS } from '../helpers/call-config.ts';

const quiet = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function callsSuite(target: TargetRef) {
  describe('calls', () => {
    const open: TestRoom[] = [];
    afterEach(() => {
      while (open.length) open.pop()!.close();
    });
    /** alice (owner, A), bob (B), carol (A) in a room of the given tier; the alice-bob DM. */
    async function room(tier: Tier = 'pro') {
      const r = await TestRoom.open(target, ['bob', 'carol']);
      open.push(r);
      if (tier !== 'free') await target().changeTier!(r.workspaceId, tier);
      const [bob, carol] = r.members as [Person, Person];
      const dm = await r.dm(r.owner, bob);
      return { r, alice: r.owner, bob, carol, dm };
    }
    const start = (from: Person, channelId: string, to: Person, callType: 'audio' | 'video' = 'video') =>
      request(from.socket, C.startCall, { channelId, targetUserId: to.id, callType });
    async function connected(from: Person, to: Person, channelId: string) {
      const ringing = next(to.socket, S.incomingCall);
      const started = await start(from, channelId, to);
      expect(started.success, JSON.stringify(started)).toBe(true);
      await ringing;
      const accepted = next(from.socket, S.callAccepted);
      const ack = await request(to.socket, C.acceptCall, { channelId, callerId: from.id });
      expect(ack.success, JSON.stringify(ack)).toBe(true);
      await accepted;
    }

    it('start, ring every tab of the callee, accept on one (the others stop), relay offer/answer/candidates, hang up', async () => {
      const { r, alice, bob, dm } = await room();
      const bobOtherTab = await r.secondSocket(bob, target().A); // bob's second tab is on alice's replica
      const rings = [next(bob.socket, S.incomingCall), next(bobOtherTab, S.incomingCall)];
      const started = await start(alice, dm.id, bob);
      expect(started.success, JSON.stringify(started)).toBe(true);
      if (!started.success) return;
      expect(started).toMatchObject({ channelId: dm.id, callType: 'video', ringTimeoutMs: CALL_TEST_RING_TIMEOUT_MS });
      for (const ring of await Promise.all(rings)) {
        expect(ring).toEqual({
          workspaceId: r.workspaceId,
          channelId: dm.id,
          callerId: alice.id,
          callerName: 'alice',
          callType: 'video',
        });
      }
      const accepted = next(alice.socket, S.callAccepted);
      const otherTabEnded = next(bobOtherTab, S.callEnded);
      const ack = await request(bob.socket, C.acceptCall, { channelId: dm.id, callerId: alice.id });
      expect(ack.success, JSON.stringify(ack)).toBe(true);
      expect(await accepted).toEqual({ channelId: dm.id, accepterId: bob.id, accepterName: 'bob' });
      expect(await otherTabEnded).toMatchObject({ channelId: dm.id, reason: 'answered-elsewhere' });
      // The other tab cannot answer too, nor signal: only the answering socket is in the call.
      expectRefused(
        await request(bobOtherTab, C.acceptCall, { channelId: dm.id, callerId: alice.id }),
        'CALL_NOT_FOUND',
      );
      expectRefused(
        await request(bobOtherTab, C.webrtcSignal, {
          channelId: dm.id,
          targetUserId: alice.id,
          signal: { type: 'answer', sdp: 'v=0' },
        }),
        'CALL_NOT_FOUND',
      );

      const offer = { type: 'offer', sdp: 'v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\n' } as const;
      const gotOffer = next(bob.socket, S.webrtcSignal);
      expect(
        (await request(alice.socket, C.webrtcSignal, { channelId: dm.id, targetUserId: bob.id, signal: offer }))
          .success,
      ).toBe(true);
      expect(await gotOffer).toEqual({ channelId: dm.id, fromUserId: alice.id, signal: offer });
      const answer = { type: 'answer', sdp: 'v=0\r\no=- 3 4 IN IP4 127.0.0.1\r\n' } as const;
      const gotAnswer = next(alice.socket, S.webrtcSignal);
      expect(
        (await request(bob.socket, C.webrtcSignal, { channelId: dm.id, targetUserId: alice.id, signal: answer }))
          .success,
      ).toBe(true);
      expect((await gotAnswer).signal).toEqual(answer);
      const candidate = {
        type: 'candidate',
        candidate: {
          candidate: 'candidate:1 1 udp 2122260223 127.0.0.1 50000 typ host',
          sdpMid: '0',
          sdpMLineIndex: 0,
        },
      } as const;
      const gotCandidate = next(bob.socket, S.webrtcSignal);
      expect(
        (await request(alice.socket, C.webrtcSignal, { channelId: dm.id, targetUserId: bob.id, signal: candidate }))
          .success,
      ).toBe(true);
      expect((await gotCandidate).signal).toEqual(candidate);

      const ended = next(bob.socket, S.callEnded);
      expect((await request(alice.socket, C.endCall, { channelId: dm.id })).success).toBe(true);
      expect(await ended).toEqual({ channelId: dm.id, reason: 'ended', endedBy: alice.id });
      // Over: no more signals, and both are free to call again.
      expectRefused(
        await request(alice.socket, C.webrtcSignal, { channelId: dm.id, targetUserId: bob.id, signal: offer }),
        'CALL_NOT_FOUND',
      );
      const again = await start(bob, dm.id, alice, 'audio');
      expect(again.success, JSON.stringify(again)).toBe(true);
      await request(bob.socket, C.endCall, { channelId: dm.id });
    });

    it('start-call and accept-call answer ICE servers: STUN, and TURN with a time-limited REST credential', async () => {
      const { alice, bob, dm } = await room();
      const started = await start(alice, dm.id, bob);
      if (!started.success) throw new Error(started.message);
      const turn = started.iceServers.find((s) => s.urls.some((u) => u.startsWith('turn:')));
      expect(turn?.urls).toEqual(CALL_TEST_ICE.turnUrls);
      const [expiry, userId] = turn!.username!.split(':');
      expect(userId).toBe(alice.id);
      const lifetime = Number(expiry) - Date.now() / 1000;
      expect(lifetime).toBeGreaterThan(CALL_TEST_ICE.turnCredentialTtlSeconds - 30);
      expect(lifetime).toBeLessThanOrEqual(CALL_TEST_ICE.turnCredentialTtlSeconds + 1);
      expect(turn!.credential).toBe(
        createHmac('sha1', CALL_TEST_ICE.turnSecret).update(turn!.username!).digest('base64'),
      );
      expect(JSON.stringify(started.iceServers)).not.toContain(CALL_TEST_ICE.turnSecret);
      await request(alice.socket, C.endCall, { channelId: dm.id });
    });

    it('reject-call: the caller hears call-rejected with the name; the call is over for both', async () => {
      const { alice, bob, dm } = await room();
      const ringing = next(bob.socket, S.incomingCall);
      await start(alice, dm.id, bob, 'audio');
      await ringing;
      const rejected = next(alice.socket, S.callRejected);
      expect((await request(bob.socket, C.rejectCall, { channelId: dm.id, callerId: alice.id })).success).toBe(true);
      expect(await rejected).toEqual({ channelId: dm.id, rejecterId: bob.id, rejecterName: 'bob' });
      expectRefused(
        await request(bob.socket, C.acceptCall, { channelId: dm.id, callerId: alice.id }),
        'CALL_NOT_FOUND',
      );
      expect((await start(alice, dm.id, bob, 'audio')).success).toBe(true);
      await request(alice.socket, C.endCall, { channelId: dm.id });
    });

    it('a busy user is refused clearly (USER_BUSY), and a caller already in a call too (ALREADY_IN_CALL); nobody else rings', async () => {
      const { r, alice, bob, carol, dm } = await room();
      await connected(alice, bob, dm.id);
      const carolBob = await r.dm(carol, bob);
      const carolAlice = await r.dm(carol, alice);
      const bobRings = collect(bob.socket, S.incomingCall);
      const aliceRings = collect(alice.socket, S.incomingCall);
      expectRefused(await start(carol, carolBob.id, bob), 'USER_BUSY', ERRORS.USER_BUSY);
      expectRefused(await start(carol, carolAlice.id, alice, 'audio'), 'USER_BUSY');
      expectRefused(await start(alice, carolAlice.id, carol), 'ALREADY_IN_CALL', ERRORS.ALREADY_IN_CALL);
      await quiet(300);
      expect(bobRings).toEqual([]);
      expect(aliceRings).toEqual([]);
      // Carol was not left claimed by her refused attempts.
      const ended = next(bob.socket, S.callEnded);
      await request(alice.socket, C.endCall, { channelId: dm.id });
      await ended;
      expect((await start(carol, carolBob.id, bob)).success).toBe(true);
      await request(carol.socket, C.endCall, { channelId: carolBob.id });
    });

    it('an unanswered call ends for both after the ring timeout (call-ended reason timeout)', async () => {
      const { alice, bob, dm } = await room();
      const ringing = next(bob.socket, S.incomingCall);
      const startedAt = Date.now();
      await start(alice, dm.id, bob);
      await ringing;
      const [forAlice, forBob] = await Promise.all([
        next(alice.socket, S.callEnded, () => true, CALL_TEST_RING_TIMEOUT_MS + 5000),
        next(bob.socket, S.callEnded, () => true, CALL_TEST_RING_TIMEOUT_MS + 5000),
      ]);
      const took = Date.now() - startedAt;
      expect(forAlice).toEqual({ channelId: dm.id, reason: 'timeout', endedBy: null });
      expect(forBob).toEqual(forAlice);
      expect(took).toBeGreaterThanOrEqual(CALL_TEST_RING_TIMEOUT_MS - 100);
      expectRefused(
        await request(bob.socket, C.acceptCall, { channelId: dm.id, callerId: alice.id }),
        'CALL_NOT_FOUND',
      );
    });

    it('a call ends when a party disconnects', async () => {
      const { alice, bob, dm } = await room();
      await connected(alice, bob, dm.id);
      const ended = next(alice.socket, S.callEnded);
      bob.socket.disconnect();
      expect(await ended).toMatchObject({ channelId: dm.id, reason: 'disconnected', endedBy: bob.id });
      expect((await start(alice, dm.id, bob)).success, 'bob is free again (offline: it just rings)').toBe(true);
      await request(alice.socket, C.endCall, { channelId: dm.id });
    });

    it('a call ends when a party is kicked, and a ringing call when the caller leaves the room', async () => {
      const { r, alice, bob, carol } = await room();
      const carolBob = await r.dm(carol, bob);
      await connected(carol, bob, carolBob.id);
      const ended = next(carol.socket, S.callEnded);
      expect((await request(alice.socket, C.kickUser, { workspaceId: r.workspaceId, userId: bob.id })).success).toBe(
        true,
      );
      expect(await ended).toMatchObject({ channelId: carolBob.id });

      const carolAlice = await r.dm(carol, alice);
      const ringing = next(alice.socket, S.incomingCall);
      await start(carol, carolAlice.id, alice, 'audio');
      await ringing;
      const ringingEnded = next(alice.socket, S.callEnded);
      expect((await request(carol.socket, C.leaveWorkspace, { workspaceId: r.workspaceId })).success).toBe(true);
      expect(await ringingEnded).toMatchObject({ channelId: carolAlice.id });
    });

    it('a free room refuses a forged start-call (Voice Calls Unavailable / Video Calls Unavailable); nobody rings', async () => {
      const { r, alice, bob, dm } = await room('free');
      const rings = collect(bob.socket, S.incomingCall);
      expectRefused(await start(alice, dm.id, bob, 'audio'), 'VOICE_CALLS_UNAVAILABLE', 'Voice Calls Unavailable');
      expectRefused(await start(alice, dm.id, bob, 'video'), 'VIDEO_CALLS_UNAVAILABLE', 'Video Calls Unavailable');
      await quiet(300);
      expect(rings).toEqual([]);
      // The refusal claimed nothing: once the room is on pro, the same call goes through.
      await target().changeTier!(r.workspaceId, 'pro');
      expect((await start(alice, dm.id, bob, 'audio')).success).toBe(true);
      await request(alice.socket, C.endCall, { channelId: dm.id });
    });

    it("only the DM's two members: a third member, a topic channel, another target and a non-party signal are refused", async () => {
      const { r, alice, bob, carol, dm } = await room();
      const rings = collect(bob.socket, S.incomingCall);
      expectRefused(await start(carol, dm.id, bob), 'NOT_DM_MEMBER');
      const topic = await r.createChannel(alice, 'lobby');
      expectRefused(await start(alice, topic.id, bob), 'NOT_A_DM');
      expectRefused(await start(alice, dm.id, carol), 'NOT_DM_MEMBER');
      expectRefused(await start(alice, dm.id, alice), 'VALIDATION');
      await connected(alice, bob, dm.id);
      const bobSignals = collect(bob.socket, S.webrtcSignal);
      expectRefused(
        await request(carol.socket, C.webrtcSignal, {
          channelId: dm.id,
          targetUserId: bob.id,
          signal: { type: 'offer', sdp: 'v=0' },
        }),
        'NOT_DM_MEMBER',
      );
      expectRefused(await request(carol.socket, C.endCall, { channelId: dm.id }), 'NOT_DM_MEMBER');
      await quiet(300);
      expect(rings.length).toBe(1); // only alice's real call rang
      expect(bobSignals).toEqual([]);
      await request(alice.socket, C.endCall, { channelId: dm.id });
    });

    it('bad payloads are refused with VALIDATION and change nothing', async () => {
      const { alice, bob, dm } = await room();
      const rings = collect(bob.socket, S.incomingCall);
      const bad: [string, unknown][] = [
        [C.startCall, { channelId: dm.id, targetUserId: bob.id, callType: 'hologram' }],
        [C.startCall, { channelId: dm.id }],
        [C.startCall, 'call me'],
        [C.acceptCall, { channelId: dm.id }],
        [
          C.webrtcSignal,
          { channelId: dm.id, targetUserId: bob.id, signal: { type: 'offer', sdp: 'x'.repeat(SDP_MAX + 1) } },
        ],
        [C.webrtcSignal, { channelId: dm.id, targetUserId: bob.id, signal: { type: 'pranswer', sdp: 'v=0' } }],
        [
          C.webrtcSignal,
          {
            channelId: dm.id,
            targetUserId: bob.id,
            signal: { type: 'candidate', candidate: { candidate: 'c'.repeat(2000) } },
          },
        ],
      ];
      for (const [event, payload] of bad) {
        const ack = (await (alice.socket as Socket)
          .timeout(10_000)
          .emitWithAck(event, payload)) as ClientAcks[typeof C.startCall];
        expectRefused(ack, 'VALIDATION');
      }
      await quiet(200);
      expect(rings).toEqual([]);
    });
  });
}
