/**
 * The state of one call as the call window reads it (docs/product/calls.md C2-C5): its phase, the two streams and the
 * buttons' states, and how it ended. CallController owns the one live copy and patches it.
 */
import type { CallType } from '@ephemera/proto';

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

/** Who and what the call is about, as the call window opens it. */
export type CallInit = Pick<CallView, 'direction' | 'callType' | 'channelId' | 'peerId' | 'peerName'>;

/** A new call: an incoming one rings, an outgoing one first prepares its media; a video call starts with the camera on. */
export function initialCallView(init: CallInit): CallView {
  return {
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
}
