/**
 * The RTCPeerConnection of one call (docs/protocol.md "Calls"): the local tracks, the SDP offer and answer, the ICE
 * candidates (held until the remote description is set), and the small "call-state" data channel over which each
 * side says whether its picture is on. It signals and reports through the handlers CallController gives it; the
 * call's phases stay in the controller.
 */
import type { IceServer, WebrtcSignalPayload } from '@ephemera/proto';

export interface CallPeerHandlers {
  /** send a signal to the other side over the room's socket */
  signal(signal: WebrtcSignalPayload): void;
  /** the data channel opened: the controller sends its picture state */
  stateChannelOpen(): void;
  /** the other side said whether its picture is on */
  peerPicture(video: boolean): void;
  /** the other side's media arrived */
  remoteStream(stream: MediaStream): void;
  /** the connection failed (ICE, or a signal it could not apply) */
  failed(): void;
}

export class CallPeer {
  private readonly handlers: CallPeerHandlers;
  private readonly pc: RTCPeerConnection;
  private readonly stateChannel: RTCDataChannel;
  /** candidates that came before the remote description */
  private pendingCandidates: RTCIceCandidateInit[] = [];

  constructor(iceServers: IceServer[], localStream: MediaStream | null, handlers: CallPeerHandlers) {
    this.handlers = handlers;
    const pc = new RTCPeerConnection({ iceServers });
    this.pc = pc;
    for (const track of localStream?.getTracks() ?? []) pc.addTrack(track, localStream!);
    // negotiated with a fixed id: both sides create the same channel, no extra signaling
    const channel = pc.createDataChannel('call-state', { negotiated: true, id: 0 });
    this.stateChannel = channel;
    channel.onopen = () => handlers.stateChannelOpen();
    channel.onmessage = (e) => {
      try {
        const m = JSON.parse(String(e.data)) as { video?: unknown };
        if (typeof m.video === 'boolean') handlers.peerPicture(m.video);
      } catch {
        /* not ours: ignored */
      }
    };
    pc.onicecandidate = (e) => {
      if (e.candidate?.candidate) {
        const j = e.candidate.toJSON();
        handlers.signal({
          type: 'candidate',
          candidate: { candidate: j.candidate ?? '', sdpMid: j.sdpMid ?? null, sdpMLineIndex: j.sdpMLineIndex ?? null },
        });
      }
    };
    pc.ontrack = (e) => handlers.remoteStream(e.streams[0] ?? new MediaStream([e.track]));
    pc.onconnectionstatechange = () => {
      if (pc.connectionState === 'failed') handlers.failed();
    };
  }

  /** The caller's side: make the offer and send it. */
  async offer(): Promise<void> {
    const offer = await this.pc.createOffer();
    await this.pc.setLocalDescription(offer);
    this.handlers.signal({ type: 'offer', sdp: offer.sdp ?? '' });
  }

  /** A signal from the other side: an offer is answered, an answer applied, a candidate added or held. */
  async receive(signal: WebrtcSignalPayload): Promise<void> {
    const pc = this.pc;
    try {
      if (signal.type === 'offer') {
        await pc.setRemoteDescription({ type: 'offer', sdp: signal.sdp });
        await this.flushCandidates();
        const answer = await pc.createAnswer();
        await pc.setLocalDescription(answer);
        this.handlers.signal({ type: 'answer', sdp: answer.sdp ?? '' });
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
      this.handlers.failed();
    }
  }

  private async flushCandidates(): Promise<void> {
    const queued = this.pendingCandidates;
    this.pendingCandidates = [];
    for (const c of queued) await this.pc.addIceCandidate(c).catch(() => {});
  }

  /** Tell the other side whether our picture is on; before the channel opens, its onopen sends it. */
  sendPictureState(video: boolean): void {
    if (this.stateChannel.readyState !== 'open') return;
    this.stateChannel.send(JSON.stringify({ video }));
  }

  /** The sender of our video track, whose track screen sharing replaces. */
  videoSender(): RTCRtpSender | undefined {
    return this.pc.getSenders().find((s) => s.track?.kind === 'video');
  }

  close(): void {
    this.pc.close();
  }
}
