/**
 * One 1:1 call (docs/product/calls.md C2-C5; docs/protocol.md "Calls"): media, signaling over the room's
 * socket, the RTCPeerConnection, and the call's state for the call window. No DOM beyond media APIs.
 *
 * Outgoing: Preparing... (media) -> start-call -> Waiting for response... (ringing tone) -> call-accepted: the peer
 * connection is created as offerer -> Connecting... -> Connected when the remote stream arrives.
 * Incoming: ringtone -> accept (media, accept-call; the caller's offer is answered) or reject.
 * It ends on hang-up (either side), decline, no answer, a party gone, or the connection failing.
 * Each side tells the other over a small data channel of the call's own connection whether its picture is on (camera
 * on or screen shared), so the window shows the person's avatar instead of the black frames of a turned-off camera.
 */
import { C, S, videoCaptureConstraints, type Tier } from '@ephemera/proto/client';
import type { CallType, IceServer, WebrtcSignalPayload, ServerEvents } from '@ephemera/proto';
import { request, type RoomSocket } from '../socket.ts';
import { playRingback, playRingtone, type Tone } from './callTones.ts';
import { t } from '../../i18n/i18n.ts';
import { errorText } from '../../i18n/errorText.ts';

export type CallPhase = 'preparing' | 'outgoing' | 'incoming' | 'connecting' | 'connected' | 'ended';

export interface CallView {
  phase: CallPhase;
  direction: 'outgoing' | 'incoming';
  callType: CallType;
  channelId: string;
  peerId: string;
  peerName: string;
  localStream: MediaStream | null;
  remoteStream: MediaStream | null;
  isAudioEnabled: boolean;
  isVideoEnabled: boolean;
  isScreenSharing: boolean;
  /** the other side's camera is on (or its screen shared): false shows their avatar instead of black frames */
  peerVideoEnabled: boolean;
  /** when the call reached Connected (Date.now()), for the call's timer */
  connectedAt: number | null;
  /** why it ended, for the window's last words or an alert (null: a plain hang-up) */
  error: string | null;
  /** the other side declined (the room shows the Call Declined toast) */
  declined: boolean;
  /** camera or microphone refused (the room alerts: the spec's Failed to access camera/microphone) */
  mediaDenied: boolean;
}

/** the call's own failures, in the active language (the room catalog is loaded while a call window is open) */
const connectionFailed = () => t('room.call.error.connection');
const ACK_TIMEOUT_MS = 10_000;
/** Connecting... that never connects (no offer came, ICE found no path) ends as a failed connection. */
const CONNECT_TIMEOUT_MS = 30_000;

type Events = ServerEvents;

export class CallController {
  private view: CallView;
  private readonly listeners = new Set<() => void>();
  private pc: RTCPeerConnection | null = null;
  private iceServers: IceServer[] = [];
  private tone: Tone | null = null;
  private cameraTrack: MediaStreamTrack | null = null;
  private screenTrack: MediaStreamTrack | null = null;
  /** candidates that came before the remote description */
  private pendingCandidates: RTCIceCandidateInit[] = [];
  private readonly off: (() => void)[] = [];
  private connectTimer: ReturnType<typeof setTimeout> | null = null;
  private stateChannel: RTCDataChannel | null = null;

  /** the room's plan: the camera quality a video call captures (docs/product/calls.md C7) */
  private readonly tier: Tier;

  constructor(
    private readonly socket: RoomSocket,
    init: Pick<CallView, 'direction' | 'callType' | 'channelId' | 'peerId' | 'peerName'> & { tier?: Tier },
  ) {
    this.tier = init.tier ?? 'free';
    this.view = {
      ...init,
      phase: init.direction === 'incoming' ? 'incoming' : 'preparing',
      localStream: null,
      remoteStream: null,
      isAudioEnabled: true,
      isVideoEnabled: init.callType === 'video',
      isScreenSharing: false,
      peerVideoEnabled: init.callType === 'video',
      connectedAt: null,
      error: null,
      declined: false,
      mediaDenied: false,
    };
    this.on(S.callAccepted, (p) => {
      if (p.channelId === this.view.channelId) void this.onAccepted();
    });
    this.on(S.callRejected, (p) => {
      if (p.channelId === this.view.channelId) this.finish({ declined: true });
    });
    this.on(S.callEnded, (p) => {
      if (p.channelId === this.view.channelId) this.finish({});
    });
    this.on(S.webrtcSignal, (p) => {
      if (p.channelId === this.view.channelId) void this.onSignal(p.signal);
    });
    this.on('disconnect' as keyof Events, () => this.finish({ error: connectionFailed() }));
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
    const ack = await request(
      this.socket,
      C.startCall,
      { channelId: this.view.channelId, targetUserId: this.view.peerId, callType: this.view.callType },
      ACK_TIMEOUT_MS,
    ).catch(() => null);
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
      void request(
        this.socket,
        C.rejectCall,
        { channelId: this.view.channelId, callerId: this.view.peerId },
        ACK_TIMEOUT_MS,
      ).catch(() => {});
      return;
    }
    const ack = await request(
      this.socket,
      C.acceptCall,
      { channelId: this.view.channelId, callerId: this.view.peerId },
      ACK_TIMEOUT_MS,
    ).catch(() => null);
    if (this.view.phase === 'ended') return;
    if (!ack || !ack.success)
      return this.finish({ error: ack ? errorText(ack.code, ack.message) : connectionFailed() });
    this.iceServers = ack.iceServers;
    this.createPeer(); // the answerer: the caller's offer comes next
    this.connecting();
  }

  reject(): void {
    void request(
      this.socket,
      C.rejectCall,
      { channelId: this.view.channelId, callerId: this.view.peerId },
      ACK_TIMEOUT_MS,
    ).catch(() => {});
    this.finish({});
  }

  hangUp(): void {
    void request(this.socket, C.endCall, { channelId: this.view.channelId }, ACK_TIMEOUT_MS).catch(() => {});
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
    const channel = this.stateChannel;
    if (channel?.readyState !== 'open') return;
    channel.send(
      JSON.stringify({
        video: this.view.callType === 'video' && (this.view.isVideoEnabled || this.view.isScreenSharing),
      }),
    );
  }

  /** The call window went away (unmount): whatever state the call is in, it ends. */
  dispose(): void {
    if (this.view.phase !== 'ended') this.hangUp();
    for (const off of this.off) off();
  }

  // ---------- signaling ----------

  private async onAccepted(): Promise<void> {
    if (this.view.phase !== 'outgoing') return;
    this.stopTone();
    this.connecting();
    const pc = this.createPeer();
    const offer = await pc.createOffer();
    await pc.setLocalDescription(offer);
    this.signal({ type: 'offer', sdp: offer.sdp ?? '' });
  }

  private async onSignal(signal: WebrtcSignalPayload): Promise<void> {
    const pc = this.pc;
    if (!pc) return;
    try {
      if (signal.type === 'offer') {
        await pc.setRemoteDescription({ type: 'offer', sdp: signal.sdp });
        await this.flushCandidates();
        const answer = await pc.createAnswer();
        await pc.setLocalDescription(answer);
        this.signal({ type: 'answer', sdp: answer.sdp ?? '' });
      } else if (signal.type === 'answer') {
        await pc.setRemoteDescription({ type: 'answer', sdp: signal.sdp });
        await this.flushCandidates();
      } else {
        const c = signal.candidate;
        // the spec: candidates without a candidate string and a media line index or id are skipped
        if (!c.candidate || (c.sdpMid == null && c.sdpMLineIndex == null)) return;
        const init: RTCIceCandidateInit = {
          candidate: c.candidate,
          sdpMid: c.sdpMid ?? null,
          sdpMLineIndex: c.sdpMLineIndex ?? null,
        };
        if (pc.remoteDescription) await pc.addIceCandidate(init);
        else this.pendingCandidates.push(init);
      }
    } catch {
      this.failConnection();
    }
  }

  private async flushCandidates(): Promise<void> {
    const queued = this.pendingCandidates;
    this.pendingCandidates = [];
    for (const c of queued) await this.pc?.addIceCandidate(c).catch(() => {});
  }

  private createPeer(): RTCPeerConnection {
    const pc = new RTCPeerConnection({ iceServers: this.iceServers });
    this.pc = pc;
    for (const track of this.view.localStream?.getTracks() ?? []) pc.addTrack(track, this.view.localStream!);
    // negotiated with a fixed id: both sides create the same channel, no extra signaling
    const channel = pc.createDataChannel('call-state', { negotiated: true, id: 0 });
    this.stateChannel = channel;
    channel.onopen = () => this.sendPictureState();
    channel.onmessage = (e) => {
      try {
        const m = JSON.parse(String(e.data)) as { video?: unknown };
        if (typeof m.video === 'boolean') this.set({ peerVideoEnabled: m.video });
      } catch {
        /* not ours: ignored */
      }
    };
    pc.onicecandidate = (e) => {
      if (e.candidate?.candidate) {
        const j = e.candidate.toJSON();
        this.signal({
          type: 'candidate',
          candidate: { candidate: j.candidate ?? '', sdpMid: j.sdpMid ?? null, sdpMLineIndex: j.sdpMLineIndex ?? null },
        });
      }
    };
    pc.ontrack = (e) => {
      const stream = e.streams[0] ?? new MediaStream([e.track]);
      if (this.view.phase === 'ended') return;
      this.set({ remoteStream: stream, phase: 'connected', connectedAt: this.view.connectedAt ?? Date.now() });
    };
    pc.onconnectionstatechange = () => {
      if (pc.connectionState === 'failed') this.failConnection();
    };
    return pc;
  }

  private connecting(): void {
    this.set({ phase: 'connecting' });
    this.connectTimer = setTimeout(() => {
      if (this.view.phase === 'connecting') this.failConnection();
    }, CONNECT_TIMEOUT_MS);
  }

  private signal(signal: WebrtcSignalPayload): void {
    void request(
      this.socket,
      C.webrtcSignal,
      { channelId: this.view.channelId, targetUserId: this.view.peerId, signal },
      ACK_TIMEOUT_MS,
    ).catch(() => {});
  }

  private failConnection(): void {
    if (this.view.phase === 'ended') return;
    void request(this.socket, C.endCall, { channelId: this.view.channelId }, ACK_TIMEOUT_MS).catch(() => {});
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
    this.stateChannel = null;
    this.pc?.close();
    this.pc = null;
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
    return this.pc?.getSenders().find((s) => s.track?.kind === 'video');
  }

  private on<E extends keyof Events>(event: E, handler: Events[E]): void {
    const s = this.socket as unknown as { on(e: string, h: unknown): void; off(e: string, h: unknown): void };
    s.on(event, handler);
    this.off.push(() => s.off(event, handler));
  }

  private set(patch: Partial<CallView>): void {
    this.view = { ...this.view, ...patch };
    for (const l of this.listeners) l();
  }
}
