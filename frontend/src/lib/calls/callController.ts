/**
 * One 1:1 call (docs/product/calls.md C2-C5; docs/protocol.md "Calls"): its phases, media and tones, and its state
 * for the call window (callView.ts). The socket's messages are callSignaling.ts', the RTCPeerConnection callPeer.ts'.
 * No DOM beyond media APIs.
 *
 * Outgoing: Preparing... (media) -> start-call -> Waiting for response... (ringing tone) -> call-accepted: the peer
 * connection is created as offerer -> Connecting... -> Connected when the remote stream arrives.
 * Incoming: ringtone -> accept (media, accept-call; the caller's offer is answered) or reject.
 * It ends on hang-up (either side), decline, no answer, a party gone, or the connection failing.
 * Each side tells the other over a small data channel of the call's own connection whether its picture is on (camera
 * on or screen shared), so the window shows the person's avatar instead of the black frames of a turned-off camera.
 */
import { videoCaptureConstraints, type Tier } from '@ephemera/proto/client';
import type { IceServer } from '@ephemera/proto';
import type { RoomSocket } from '../socket.ts';
import { playRingback, playRingtone, type Tone } from './callTones.ts';
import { CallPeer } from './callPeer.ts';
import { CallSignaling } from './callSignaling.ts';
import { initialCallView, type CallInit, type CallView } from './callView.ts';
import { t } from '../../i18n/i18n.ts';
import { errorText } from '../../i18n/errorText.ts';

/** the call's own failures, in the active language (the room catalog is loaded while a call window is open) */
const connectionFailed = () => t('room.call.error.connection');
/** Connecting... that never connects (no offer came, ICE found no path) ends as a failed connection. */
const CONNECT_TIMEOUT_MS = 30_000;

export class CallController {
  private view: CallView;
  private readonly listeners = new Set<() => void>();
  private peer: CallPeer | null = null;
  private iceServers: IceServer[] = [];
  private tone: Tone | null = null;
  private cameraTrack: MediaStreamTrack | null = null;
  private screenTrack: MediaStreamTrack | null = null;
  private readonly signaling: CallSignaling;
  private connectTimer: ReturnType<typeof setTimeout> | null = null;

  /** the room's plan: the camera quality a video call captures (docs/product/calls.md C7) */
  private readonly tier: Tier;

  constructor(socket: RoomSocket, init: CallInit & { tier?: Tier }) {
    const { tier, ...call } = init;
    this.tier = tier ?? 'free';
    this.view = initialCallView(call);
    this.signaling = new CallSignaling(socket, call.channelId, call.peerId);
    this.signaling.listen({
      accepted: () => void this.onAccepted(),
      rejected: () => this.finish({ declined: true }),
      ended: () => this.finish({}),
      signal: (signal) => void this.peer?.receive(signal),
      disconnected: () => this.finish({ error: connectionFailed() }),
    });
    if (init.direction === 'incoming') this.tone = playRingtone();
  }

  get state(): CallView {
    return this.view;
  }
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  // ---------- the user's actions ----------

  async startOutgoing(): Promise<void> {
    if (!(await this.acquireMedia())) return;
    const ack = await this.signaling.start(this.view.callType);
    if (this.view.phase === 'ended') return;
    if (!ack || !ack.success)
      return this.finish({ error: ack ? errorText(ack.code, ack.message) : connectionFailed() });
    this.iceServers = ack.iceServers;
    this.set({ phase: 'outgoing' });
    this.tone = playRingback();
  }

  async accept(): Promise<void> {
    this.stopTone();
    this.set({ phase: 'preparing' });
    if (!(await this.acquireMedia())) {
      this.signaling.reject();
      return;
    }
    const ack = await this.signaling.accept();
    if (this.view.phase === 'ended') return;
    if (!ack || !ack.success)
      return this.finish({ error: ack ? errorText(ack.code, ack.message) : connectionFailed() });
    this.iceServers = ack.iceServers;
    this.createPeer(); // the answerer: the caller's offer comes next
    this.connecting();
  }

  reject(): void {
    this.signaling.reject();
    this.finish({});
  }

  hangUp(): void {
    this.signaling.end();
    this.finish({});
  }

  toggleAudio(): void {
    const enabled = !this.view.isAudioEnabled;
    this.view.localStream?.getAudioTracks().forEach((t) => {
      t.enabled = enabled;
    });
    this.set({ isAudioEnabled: enabled });
  }

  toggleVideo(): void {
    const enabled = !this.view.isVideoEnabled;
    if (this.cameraTrack) this.cameraTrack.enabled = enabled;
    this.set({ isVideoEnabled: enabled });
    this.sendPictureState();
  }

  /** Screen sharing: the display's track replaces the camera's on the same sender; when sharing stops, the camera is back. */
  async toggleScreenShare(): Promise<void> {
    if (this.screenTrack) return this.stopScreenShare();
    let display: MediaStream;
    try {
      display = await navigator.mediaDevices.getDisplayMedia({ video: true, audio: false });
    } catch {
      return;
    }
    const track = display.getVideoTracks()[0];
    const sender = this.videoSender();
    if (!track || !sender || this.view.phase === 'ended') {
      display.getTracks().forEach((t) => t.stop());
      return;
    }
    await sender.replaceTrack(track);
    this.screenTrack = track;
    track.onended = () => {
      void this.stopScreenShare();
    }; // the browser's own "Stop sharing" button
    this.set({
      isScreenSharing: true,
      localStream: new MediaStream([track, ...(this.view.localStream?.getAudioTracks() ?? [])]),
    });
    this.sendPictureState();
  }

  private async stopScreenShare(): Promise<void> {
    const track = this.screenTrack;
    if (!track) return;
    this.screenTrack = null;
    track.onended = null;
    track.stop();
    const sender = this.videoSender();
    if (sender && this.cameraTrack) await sender.replaceTrack(this.cameraTrack).catch(() => {});
    const audio = this.view.localStream?.getAudioTracks() ?? [];
    this.set({
      isScreenSharing: false,
      localStream: new MediaStream([...(this.cameraTrack ? [this.cameraTrack] : []), ...audio]),
    });
    this.sendPictureState();
  }

  /** Tell the other side whether our picture is on (the data channel opens with the connection; see createPeer). */
  private sendPictureState(): void {
    this.peer?.sendPictureState(
      this.view.callType === 'video' && (this.view.isVideoEnabled || this.view.isScreenSharing),
    );
  }

  /** The call window went away (unmount): whatever state the call is in, it ends. */
  dispose(): void {
    if (this.view.phase !== 'ended') this.hangUp();
    this.signaling.close();
  }

  // ---------- signaling ----------

  private async onAccepted(): Promise<void> {
    if (this.view.phase !== 'outgoing') return;
    this.stopTone();
    this.connecting();
    await this.createPeer().offer();
  }

  private createPeer(): CallPeer {
    this.peer = new CallPeer(this.iceServers, this.view.localStream, {
      signal: (signal) => this.signaling.signal(signal),
      stateChannelOpen: () => this.sendPictureState(),
      peerPicture: (video) => this.set({ peerVideoEnabled: video }),
      remoteStream: (stream) => {
        if (this.view.phase === 'ended') return;
        this.set({ remoteStream: stream, phase: 'connected', connectedAt: this.view.connectedAt ?? Date.now() });
      },
      failed: () => this.failConnection(),
    });
    return this.peer;
  }

  private connecting(): void {
    this.set({ phase: 'connecting' });
    this.connectTimer = setTimeout(() => {
      if (this.view.phase === 'connecting') this.failConnection();
    }, CONNECT_TIMEOUT_MS);
  }

  private failConnection(): void {
    if (this.view.phase === 'ended') return;
    this.signaling.end();
    this.finish({ error: connectionFailed() });
  }

  // ---------- media and state ----------

  private async acquireMedia(): Promise<boolean> {
    const video = this.view.callType === 'video';
    try {
      const stream = await navigator.mediaDevices.getUserMedia({
        audio: true,
        video: video && videoCaptureConstraints(this.tier),
      });
      if (this.view.phase === 'ended') {
        stream.getTracks().forEach((t) => t.stop());
        return false;
      }
      this.cameraTrack = stream.getVideoTracks()[0] ?? null;
      this.set({ localStream: stream });
      return true;
    } catch {
      this.finish({ error: t(video ? 'room.call.error.media' : 'room.call.error.mic'), mediaDenied: true });
      return false;
    }
  }

  private finish(how: { error?: string; declined?: boolean; mediaDenied?: boolean }): void {
    if (this.view.phase === 'ended') return;
    this.stopTone();
    if (this.connectTimer) clearTimeout(this.connectTimer);
    this.screenTrack?.stop();
    this.view.localStream?.getTracks().forEach((t) => t.stop());
    this.cameraTrack?.stop();
    this.peer?.close();
    this.peer = null;
    this.set({
      phase: 'ended',
      error: how.error ?? null,
      declined: how.declined ?? false,
      mediaDenied: how.mediaDenied ?? false,
      localStream: null,
      remoteStream: null,
    });
  }

  private stopTone(): void {
    this.tone?.stop();
    this.tone = null;
  }

  private videoSender(): RTCRtpSender | undefined {
    return this.peer?.videoSender();
  }

  private set(patch: Partial<CallView>): void {
    this.view = { ...this.view, ...patch };
    for (const l of this.listeners) l();
  }
}
