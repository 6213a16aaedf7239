/**
 * Calls in real browsers (docs/product/calls.md): Chromium's fake camera and microphone
 * (--use-fake-device-for-media-stream,
 * --use-fake-ui-for-media-stream), host candidates on loopback (--allow-loopback-in-peer-connection; no TURN needed).
 * On a pro room alice video-calls bob from the DM header; bob accepts; both reach Connected with the other's video
 * playing (videoWidth > 0, currentTime advancing). Alice shares her screen (getDisplayMedia, auto-selected) and bob's
 * remote video switches to it, then back to the camera when she stops. A free room's call buttons open the upgrade
 * dialog. Embedded mode, and distributed mode with alice on gateway-1 and bob on gateway-2 behind the ingress.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { C, INTERNAL, type Tier } from '@ephemera/proto';
import { createLogger } from '@ephemera/platform';
import { createRoom, joinRoom, request, socketJoin } from '../../test/helpers/clients.ts';
import { startEmbedded } from '../../services/embedded/app.ts';
import { startDistributedStack } from '../../test/distributed/stack.ts';
import { startIngress } from '../../deploy/local/ingress.ts';
import { freePort } from '../../deploy/local/infra.ts';
import { startPionTurn, type TurnServer } from '../../deploy/local/pion-turn.ts';
import { seriousViolations } from './admin.helpers.ts';
import { CHROMIUM_PATH, FRONTEND_DIST, expectText, uniqueRoomName, User, WAIT_MS, type CookieSpec } from './browser.ts';

const DIST = process.env.E2E_FRONTEND_DIST ?? FRONTEND_DIST;
const MEDIA_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
  '--allow-loopback-in-peer-connection',
  '--auto-select-desktop-capture-source=Entire screen',
  '--autoplay-policy=no-user-gesture-required',
];

interface CallTarget {
  base: string;
  cookiesA: CookieSpec[];
  cookiesB: CookieSpec[];
  replicaA?: string;
  replicaB?: string;
  changeTier(workspaceId: string, tier: Tier): Promise<void>;
  stop(): Promise<void>;
}

async function embedded(): Promise<CallTarget> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-e2e-calls-'));
  const app = await startEmbedded({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    logger: createLogger('e2e-calls', 'silent'),
    frontendDist: DIST,
    calls: { ringTimeoutMs: 30_000, ice: { stunUrls: [], turnUrls: [], turnCredentialTtlSeconds: 600 } },
  });
  return {
    base: app.url,
    cookiesA: [],
    cookiesB: [],
    changeTier: async (workspaceId, tier) => {
      await app.rooms.changeTier({ workspaceId, tier, reason: 'browser test' });
    },
    stop: async () => {
      await app.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function distributed(): Promise<CallTarget> {
  // the product's ring timeout, as embedded: the test scans the ringing window with axe before accepting (the stack's
  // short test default ended the call first on a loaded machine)
  const stack = await startDistributedStack({ callRingTimeoutMs: 30_000 });
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-e2e-calls-ingress-'));
  const ingress = await startIngress({
    runDir,
    port: await freePort(),
    gateway1Port: stack.gateway1Port,
    gateway2Port: stack.gateway2Port,
    roomPort: stack.roomPort,
    messagingPort: stack.messagingPort,
    frontendDist: DIST,
  });
  const pin = (replica: string): CookieSpec[] => [
    { name: 'ephemera_gw', value: replica, domain: '127.0.0.1', path: '/socket.io/' },
  ];
  return {
    base: ingress.url,
    cookiesA: pin('gateway-1'),
    cookiesB: pin('gateway-2'),
    replicaA: 'gateway-1',
    replicaB: 'gateway-2',
    changeTier: async (workspaceId, tier) => {
      await stack.roomInternalCall(INTERNAL.changeTier, { workspaceId, tier, reason: 'browser test' });
    },
    stop: async () => {
      await ingress.stop();
      await stack.stop();
      fs.rmSync(runDir, { recursive: true, force: true });
    },
  };
}

/** The remote video's frame size and playback time, from bob's or alice's page. */
const remoteVideo = (u: User) =>
  u
    .byTestId('call-remote-video')
    .evaluate((v: HTMLVideoElement) => ({ w: v.videoWidth, h: v.videoHeight, t: v.currentTime }));

/** Test instrumentation: every RTCPeerConnection the page makes, kept on window, so the test can read what it sends. */
async function recordPeerConnections(u: User): Promise<void> {
  await u.context.addInitScript(() => {
    const w = window as unknown as { __pcs: RTCPeerConnection[] };
    w.__pcs = [];
    const Native = window.RTCPeerConnection;
    window.RTCPeerConnection = class extends Native {
      constructor(...args: ConstructorParameters<typeof Native>) {
        super(...args);
        w.__pcs.push(this);
      }
    } as typeof Native;
  });
}

/** The label of the live video track the page's newest peer connection sends (the camera's, or the screen's). */
const sentVideoLabel = (u: User) =>
  u.page.evaluate(() => {
    const pcs = (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs;
    const senders = pcs.length ? pcs[pcs.length - 1].getSenders() : [];
    const track = senders.map((x) => x.track).find((t) => t?.kind === 'video' && t.readyState === 'live');
    return track?.label ?? null;
  });

async function expectPlaying(u: User, what: string): Promise<{ w: number; h: number }> {
  await expect
    .poll(async () => (await remoteVideo(u)).w, { timeout: WAIT_MS, message: `${what}: remote video has frames` })
    .toBeGreaterThan(0);
  const first = await remoteVideo(u);
  await expect
    .poll(async () => (await remoteVideo(u)).t, { timeout: WAIT_MS, message: `${what}: remote video advances` })
    .toBeGreaterThan(first.t + 0.5);
  return { w: first.w, h: first.h };
}

function registerCallScenario(label: string, start: () => Promise<CallTarget>) {
  describe(`browser: calls (${label})`, () => {
    let target: CallTarget | undefined;
    let browser: Browser | undefined;
    const users: User[] = [];

    /** A room of this tier with alice (owner) and bob, their DM, and both browsers open on it. */
    async function room(tier: Tier) {
      const t = target!;
      const name = uniqueRoomName(`call${tier}`);
      const created = await createRoom(t.base, name, 'alice');
      const workspaceId = created.workspaceId as string;
      if (tier !== 'free') await t.changeTier(workspaceId, tier);
      const joined = await joinRoom(t.base, workspaceId, 'bob');
      const { socket } = await socketJoin(t.base, workspaceId, 'alice', created.userToken);
      const dm = await request(socket, C.createDmChannel, { workspaceId, targetUserId: joined.user.id });
      socket.close();
      if (!dm.success) throw new Error(dm.message);
      const open = async (username: string, token: string, cookies: CookieSpec[], replica?: string) => {
        const u = await User.open(browser!, username, t.base, cookies, replica);
        users.push(u);
        await recordPeerConnections(u);
        await u.context.grantPermissions(['camera', 'microphone']);
        await u.enterRoom({ workspaceId, userToken: token, username, roomName: name });
        await u.page.locator(`[data-testid="dm-row"][data-channel-id="${dm.channel.id}"]`).click();
        await u.byTestId('chat-header').waitFor();
        return u;
      };
      const alice = await open('alice', created.userToken, t.cookiesA, t.replicaA);
      const bob = await open('bob', joined.userToken, t.cookiesB, t.replicaB);
      return { alice, bob };
    }

    beforeAll(async () => {
      if (!fs.existsSync(path.join(DIST, 'index.html')))
        throw new Error(`${DIST}/index.html is missing: build the frontend first (npm run build:frontend)`);
      [target, browser] = await Promise.all([
        start(),
        chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: MEDIA_ARGS }),
      ]);
    });
    afterAll(async () => {
      for (const u of users) await u.close();
      await browser?.close().catch(() => {});
      await target?.stop();
    });

    it("a pro room: alice video-calls bob, bob accepts, both reach Connected with the other's video playing, names and a running timer; camera off shows the avatar; screen share and back; hang up", async () => {
      const { alice, bob } = await room('pro');
      await alice.byTestId('video-call-button').click();
      await bob.byTestId('call-window').waitFor();
      await expectText(bob.byTestId('call-status'), 'Incoming video call...', 'bob rings');
      await expectText(alice.byTestId('call-status'), 'Waiting for response...', 'alice waits');
      expect(await seriousViolations(bob.page), 'axe: the incoming call window').toEqual([]);
      await bob.byTestId('call-accept').click();
      await expectText(alice.byTestId('call-status'), 'Connected', 'alice connected');
      await expectText(bob.byTestId('call-status'), 'Connected', 'bob connected');
      await expectPlaying(bob, 'bob sees alice');
      await expectPlaying(alice, 'alice sees bob');
      expect(await seriousViolations(alice.page), 'axe: the call window in a call').toEqual([]);
      const preview = await alice.byTestId('call-local-video').boundingBox();
      expect([Math.round(preview!.width), Math.round(preview!.height)]).toEqual([192, 144]);

      // Names on the pictures and the call's running time (docs/product/calls.md C6)
      await expectText(bob.byTestId('call-remote-name'), 'alice', "bob sees alice's name on her picture");
      await expectText(alice.byTestId('call-remote-name'), 'bob', "alice sees bob's name");
      await expectText(alice.byTestId('call-local').locator('.call-name-tag'), 'You', "alice's own picture");
      const timer = bob.page.getByRole('timer', { name: 'Call duration' });
      await expectText(timer, /^0:\d\d$/, 'the call timer');
      const started = await timer.textContent();
      await expect.poll(() => timer.textContent(), { timeout: WAIT_MS, message: 'the timer runs' }).not.toBe(started);

      // Alice turns her camera off: bob sees her avatar and name instead of black frames, alice sees hers on her tile
      await alice.byTestId('call-camera').click();
      await bob.byTestId('call-peer').waitFor({ timeout: WAIT_MS });
      await expectText(bob.byTestId('call-peer-name'), 'alice', 'bob sees who is behind the turned-off camera');
      await alice.byTestId('call-local-avatar').waitFor({ timeout: WAIT_MS });
      await alice.byTestId('call-camera').click();
      await bob.byTestId('call-peer').waitFor({ state: 'detached', timeout: WAIT_MS });
      expect(await alice.byTestId('call-local-avatar').count(), "alice's camera is back").toBe(0);

      // Screen sharing: the display track replaces the camera's on the same sender, and back. Told apart by the sent
      // track's label, not by bob's frame size: the camera captures at the plan's HD 1280x720 (docs/product/calls.md
      // C7), the size of the fake screen too, and WebRTC scales a busy machine's stream down at will.
      const cameraLabel = await sentVideoLabel(alice);
      expect(cameraLabel, 'alice sends her camera').toBeTruthy();
      await alice.byTestId('call-screen').click();
      await expect
        .poll(() => alice.byTestId('call-screen').getAttribute('aria-pressed'), {
          timeout: WAIT_MS,
          message: 'alice is sharing',
        })
        .toBe('true');
      await expect
        .poll(() => sentVideoLabel(alice), { timeout: WAIT_MS, message: 'alice sends her screen' })
        .not.toBe(cameraLabel);
      await expectPlaying(bob, 'bob sees the screen');
      await alice.byTestId('call-screen').click();
      await expect
        .poll(() => sentVideoLabel(alice), { timeout: WAIT_MS, message: 'alice sends her camera again' })
        .toBe(cameraLabel);
      await expectPlaying(bob, 'bob sees the camera again');

      await alice.byTestId('call-mute').click();
      expect(await alice.byTestId('call-mute').getAttribute('aria-pressed')).toBe('true');
      await bob.byTestId('call-end').click();
      await alice.byTestId('call-window').waitFor({ state: 'detached' });
      await bob.byTestId('call-window').waitFor({ state: 'detached' });
      // distributed: every realtime answer came from the replica each was pinned to (the relay crossed replicas)
      if (target!.replicaA) {
        expect(new Set(alice.gatewaySetCookies)).toEqual(new Set([target!.replicaA]));
        expect(new Set(bob.gatewaySetCookies)).toEqual(new Set([target!.replicaB]));
      }
    });

    it('declining: the caller sees the Call Declined toast', async () => {
      const { alice, bob } = await room('pro');
      await alice.byTestId('voice-call-button').click();
      await bob.byTestId('call-reject').click();
      await expectText(alice.byTestId('call-toast'), /Call Declined/, 'declined toast');
      await alice.byTestId('call-window').waitFor({ state: 'detached' });
    });

    it('a free room: the call buttons open the upgrade dialog (Voice Calls Unavailable / Video Calls Unavailable); nothing rings', async () => {
      const { alice, bob } = await room('free');
      await alice.byTestId('voice-call-button').click();
      await expectText(
        alice.byTestId('call-upgrade-modal').getByRole('heading'),
        'Voice Calls Unavailable',
        'voice upgrade dialog',
      );
      await alice.page.keyboard.press('Escape');
      await alice.byTestId('video-call-button').click();
      await expectText(
        alice.byTestId('call-upgrade-modal').getByRole('heading'),
        'Video Calls Unavailable',
        'video upgrade dialog',
      );
      await alice.page.keyboard.press('Escape');
      await new Promise((r) => setTimeout(r, 500));
      expect(await bob.byTestId('call-window').count()).toBe(0);
      expect(await alice.byTestId('call-window').count()).toBe(0);
    });
  });
}

/**
 * In one page, two peer connections allowed to use relay candidates only, with the ICE servers a start-call answered:
 * they connect only if the TURN server accepted the credential (TURN REST: expiry:userId, HMAC-SHA1 of the secret).
 */
function relayedPair(iceServers: unknown): Promise<{ relayCandidates: number; state: string }> {
  return new Promise((resolve) => {
    const config = { iceServers: iceServers as RTCIceServer[], iceTransportPolicy: 'relay' as const };
    const a = new RTCPeerConnection(config);
    const b = new RTCPeerConnection(config);
    let relayCandidates = 0;
    const done = (state: string) => {
      a.close();
      b.close();
      resolve({ relayCandidates, state });
    };
    const timer = setTimeout(() => done(a.connectionState), 15_000);
    a.onicecandidate = (e) => {
      if (e.candidate) {
        if (/ typ relay /.test(e.candidate.candidate)) relayCandidates++;
        void b.addIceCandidate(e.candidate);
      }
    };
    b.onicecandidate = (e) => {
      if (e.candidate) void a.addIceCandidate(e.candidate);
    };
    // gathering over without a relay candidate: the TURN server refused the credential (no point waiting longer)
    a.onicegatheringstatechange = () => {
      if (a.iceGatheringState === 'complete' && relayCandidates === 0) {
        clearTimeout(timer);
        done('no-relay');
      }
    };
    a.onconnectionstatechange = () => {
      if (a.connectionState === 'connected' || a.connectionState === 'failed') {
        clearTimeout(timer);
        done(a.connectionState);
      }
    };
    a.createDataChannel('probe');
    void (async () => {
      await a.setLocalDescription(await a.createOffer());
      await b.setRemoteDescription(a.localDescription!);
      await b.setLocalDescription(await b.createAnswer());
      await a.setRemoteDescription(b.localDescription!);
    })();
  });
}

describe('browser: calls through a real TURN server (pion, TURN REST credentials)', () => {
  let turn: TurnServer | undefined;
  let target: CallTarget | undefined;
  let browser: Browser | undefined;
  let user: User | undefined;
  beforeAll(async () => {
    turn = await startPionTurn('e2e-turn-secret');
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-e2e-turn-'));
    const app = await startEmbedded({
      port: 0,
      host: '127.0.0.1',
      dataDir,
      logger: createLogger('e2e-turn', 'silent'),
      frontendDist: DIST,
      calls: {
        ringTimeoutMs: 30_000,
        ice: { stunUrls: [], turnUrls: [turn.url], turnSecret: turn.secret, turnCredentialTtlSeconds: 600 },
      },
    });
    target = {
      base: app.url,
      cookiesA: [],
      cookiesB: [],
      changeTier: async (workspaceId, tier) => {
        await app.rooms.changeTier({ workspaceId, tier, reason: 'browser test' });
      },
      stop: async () => {
        await app.stop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: MEDIA_ARGS });
  });
  afterAll(async () => {
    await user?.close();
    await browser?.close().catch(() => {});
    await target?.stop();
    await turn?.stop();
  });

  it('the ICE servers of a start-call ack relay a connection through TURN; a forged credential gets no relay', async () => {
    const t = target!;
    const created = await createRoom(t.base, uniqueRoomName('turn'), 'alice');
    await t.changeTier(created.workspaceId as string, 'pro');
    const bob = await joinRoom(t.base, created.workspaceId as string, 'bob');
    const { socket } = await socketJoin(t.base, created.workspaceId as string, 'alice', created.userToken);
    const dm = await request(socket, C.createDmChannel, {
      workspaceId: created.workspaceId,
      targetUserId: bob.user.id,
    });
    if (!dm.success) throw new Error(dm.message);
    const ack = await request(socket, C.startCall, {
      channelId: dm.channel.id,
      targetUserId: bob.user.id,
      callType: 'video',
    });
    if (!ack.success) throw new Error(ack.message);
    await request(socket, C.endCall, { channelId: dm.channel.id });
    socket.close();
    expect(ack.iceServers).toEqual([
      { urls: [turn!.url], username: expect.stringMatching(/^\d+:/), credential: expect.any(String) },
    ]);

    user = await User.open(browser!, 'probe', t.base);
    await user.goto('/');
    const relayed = await user.page.evaluate(relayedPair, ack.iceServers);
    expect(relayed.relayCandidates, 'relay candidates with the served credential').toBeGreaterThan(0);
    expect(relayed.state).toBe('connected');
    const forged = ack.iceServers.map((s) => ({ ...s, credential: Buffer.from('not the secret').toString('base64') }));
    const refused = await user.page.evaluate(relayedPair, forged);
    expect(refused.relayCandidates, 'a forged credential gets no relay candidate').toBe(0);
  });
});

registerCallScenario('embedded', embedded);
registerCallScenario('distributed: alice on gateway-1, bob on gateway-2', distributed);
