/**
 * The call window (docs/product/calls.md C6): incoming (accept, reject), then in-call with mute,
 * camera toggle (video calls), screen sharing (video calls), end and fullscreen (desktop). Status texts: Preparing...,
 * Waiting for response..., Connecting..., Connected, with the call's running time once connected. Each picture carries
 * its person's name (the local one "You"); a camera that is off shows the person's avatar instead of black frames.
 * At most 5xl wide and 90% high; the local preview is 192x144.
 * Loaded lazily (RoomView, its one host): WebRTC code is not in the room page's initial JavaScript. A Radix dialog:
 * focus moves into the window and back when it closes; Escape and clicks outside do not end a call.
 */
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import type { CallType, Tier } from '@ephemera/proto';
import type { RoomSocket } from '../../lib/socket.ts';
import { CallController } from '../../lib/calls/callController.ts';
import type { CallPhase, CallView } from '../../lib/calls/callView.ts';
import { formatDuration } from '../../lib/fileUpload.ts';
import { PersonAvatar } from '../sidebar/PersonAvatar.tsx';
import { t as translate, useCatalog, useT, type MessageId } from '../../i18n/i18n.ts';
import {
  FullscreenIcon,
  HangUpIcon,
  MicIcon,
  MicOffIcon,
  PhoneIcon,
  ScreenIcon,
  VideoIcon,
  VideoOffIcon,
} from './CallIcons.tsx';
import './calls.css';

export type CallLaunch = (
  | { direction: 'outgoing'; channelId: string; peerId: string; peerName: string; callType: CallType }
  | { direction: 'incoming'; channelId: string; peerId: string; peerName: string; callType: CallType }
) & { /** the room's plan: the camera quality it captures (proto VIDEO_QUALITY) */ tier?: Tier };

export interface CallOutcome {
  error: string | null;
  declined: boolean;
  peerName: string;
  mediaDenied: boolean;
}

const STATUS: Record<CallPhase, MessageId> = {
  preparing: 'room.call.status.preparing',
  outgoing: 'room.call.status.outgoing',
  incoming: 'room.call.status.incoming',
  connecting: 'room.call.status.connecting',
  connected: 'room.call.status.connected',
  ended: 'room.call.status.ended',
};
const isPhone = () =>
  typeof window.matchMedia === 'function' && window.matchMedia('(pointer: coarse) and (max-width: 1024px)').matches;

/** Why the element cannot go fullscreen, or null when it can try. */
export function fullscreenProblem(
  el: { requestFullscreen?: unknown },
  fullscreenEnabled: boolean | undefined,
  phone: boolean,
): string | null {
  // the spec names the cases, not the wording
  if (typeof el.requestFullscreen !== 'function')
    return translate(phone ? 'room.call.fullscreen.rotate' : 'room.call.fullscreen.unsupported');
  if (!fullscreenEnabled) return translate('room.call.fullscreen.restricted');
  return null;
}

function Media({
  stream,
  muted,
  className,
  testId,
  audioOnly,
}: {
  stream: MediaStream | null;
  muted: boolean;
  className: string;
  testId: string;
  audioOnly?: boolean;
}) {
  const ref = useRef<HTMLVideoElement & HTMLAudioElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (el && el.srcObject !== stream) el.srcObject = stream;
  }, [stream]);
  if (audioOnly) return <audio ref={ref} autoPlay data-testid={testId} />;
  return <video ref={ref} className={className} autoPlay playsInline muted={muted} data-testid={testId} />;
}

/** The call's running time (m:ss), from when it connected. */
function CallTimer({ since }: { since: number }) {
  const t = useT();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <span className="call-timer" role="timer" aria-label={t('room.call.duration')} data-testid="call-timer">
      {formatDuration(Math.max(0, now - since))}
    </span>
  );
}

/** Who is in the call besides the other person: this member's name and picture (their own tile). */
export interface CallSelf {
  name: string;
  picture: string | null;
  peerPicture: string | null;
}

export function CallWindow({
  socket,
  launch,
  self,
  onClose,
}: {
  socket: RoomSocket;
  launch: CallLaunch;
  self: CallSelf;
  onClose(outcome: CallOutcome): void;
}) {
  useCatalog('room');
  const t = useT();
  const [call] = useState(() => new CallController(socket, launch));
  const view: CallView = useSyncExternalStore(
    (l) => call.subscribe(l),
    () => call.state,
  );
  const frame = useRef<HTMLDivElement>(null);
  const [hint, setHint] = useState<string | null>(null);
  // no Dialog.Trigger (a call button or a ringing call opens it): focus goes back to what had it, as in Modal.tsx
  const [returnFocus] = useState(() => document.activeElement as HTMLElement | null);

  useEffect(() => {
    if (launch.direction === 'outgoing') void call.startOutgoing();
    return () => call.dispose();
  }, [call, launch.direction]);

  useEffect(() => {
    if (view.phase !== 'ended') return;
    onClose({ error: view.error, declined: view.declined, peerName: view.peerName, mediaDenied: view.mediaDenied });
  }, [view.phase]); // eslint-disable-line react-hooks/exhaustive-deps

  const fullscreen = () => {
    const el = frame.current;
    if (!el) return;
    if (document.fullscreenElement) {
      void document.exitFullscreen();
      return;
    }
    const problem = fullscreenProblem(el, document.fullscreenEnabled, isPhone());
    if (problem) {
      setHint(problem);
      return;
    }
    el.requestFullscreen().catch(() => setHint(translate('room.call.fullscreen.restricted')));
  };

  const video = view.callType === 'video';
  const inCall =
    view.phase === 'connecting' ||
    view.phase === 'connected' ||
    view.phase === 'outgoing' ||
    view.phase === 'preparing';
  return (
    <Dialog.Root open>
      <Dialog.Portal>
        <Dialog.Overlay className="call-backdrop">
          <Dialog.Content
            ref={frame}
            className={`call-window${video ? ' call-video' : ' call-audio'}`}
            aria-describedby={undefined}
            onCloseAutoFocus={(e) => {
              e.preventDefault();
              if (returnFocus?.isConnected) returnFocus.focus();
            }}
            onEscapeKeyDown={(e) => e.preventDefault()}
            onPointerDownOutside={(e) => e.preventDefault()}
            onInteractOutside={(e) => e.preventDefault()}
            data-testid="call-window"
            data-phase={view.phase}
          >
            <Dialog.Title className="call-title">
              {t(video ? 'room.call.titleVideo' : 'room.call.titleVoice', { name: view.peerName })}
            </Dialog.Title>
            <div className="call-stage">
              {video && (
                <Media stream={view.remoteStream} muted={false} className="call-remote" testId="call-remote-video" />
              )}
              {!video && (
                <Media stream={view.remoteStream} muted={false} className="" testId="call-remote-audio" audioOnly />
              )}
              {(!video || view.phase !== 'connected' || !view.peerVideoEnabled) && (
                <div className="call-peer" data-testid="call-peer">
                  <PersonAvatar name={view.peerName} picture={self.peerPicture} size={96} />
                  <div className="call-peer-name" data-testid="call-peer-name">
                    {view.peerName}
                  </div>
                </div>
              )}
              {video && view.phase === 'connected' && view.peerVideoEnabled && (
                <div className="call-name-tag call-remote-name" data-testid="call-remote-name">
                  {view.peerName}
                </div>
              )}
              <div className="call-top">
                <div className="call-status" role="status" data-testid="call-status">
                  {view.phase === 'incoming'
                    ? t(video ? 'room.call.incomingVideo' : 'room.call.incomingVoice')
                    : t(STATUS[view.phase])}
                </div>
                {view.phase === 'connected' && view.connectedAt !== null && <CallTimer since={view.connectedAt} />}
              </div>
              {video && view.localStream && (
                <div className={`call-local${view.isScreenSharing ? ' sharing' : ''}`} data-testid="call-local">
                  <Media stream={view.localStream} muted className="call-local-video" testId="call-local-video" />
                  {!view.isVideoEnabled && !view.isScreenSharing && (
                    <div className="call-local-off" data-testid="call-local-avatar">
                      <PersonAvatar name={self.name} picture={self.picture} size={56} />
                    </div>
                  )}
                  <span className="call-name-tag">{t('room.message.you')}</span>
                </div>
              )}
            </div>
            {hint && (
              <p className="call-hint" role="alert">
                {hint}
              </p>
            )}
            <div className="call-controls">
              {view.phase === 'incoming' ? (
                <>
                  <button
                    type="button"
                    className="call-button call-accept"
                    onClick={() => void call.accept()}
                    data-testid="call-accept"
                    aria-label={t('room.call.accept')}
                  >
                    {video ? <VideoIcon size={22} /> : <PhoneIcon size={22} />}
                  </button>
                  <button
                    type="button"
                    className="call-button call-end"
                    onClick={() => call.reject()}
                    data-testid="call-reject"
                    aria-label={t('room.call.reject')}
                  >
                    <HangUpIcon size={22} />
                  </button>
                </>
              ) : (
                inCall && (
                  <>
                    <button
                      type="button"
                      className={`call-button${view.isAudioEnabled ? '' : ' off'}`}
                      onClick={() => call.toggleAudio()}
                      aria-pressed={!view.isAudioEnabled}
                      aria-label={t(view.isAudioEnabled ? 'room.call.mute' : 'room.call.unmute')}
                      data-testid="call-mute"
                    >
                      {view.isAudioEnabled ? <MicIcon size={20} /> : <MicOffIcon size={20} />}
                    </button>
                    {video && (
                      <button
                        type="button"
                        className={`call-button${view.isVideoEnabled ? '' : ' off'}`}
                        onClick={() => call.toggleVideo()}
                        aria-pressed={!view.isVideoEnabled}
                        aria-label={t(view.isVideoEnabled ? 'room.call.cameraOff' : 'room.call.cameraOn')}
                        data-testid="call-camera"
                      >
                        {view.isVideoEnabled ? <VideoIcon size={20} /> : <VideoOffIcon size={20} />}
                      </button>
                    )}
                    {video && view.phase === 'connected' && (
                      <button
                        type="button"
                        className={`call-button${view.isScreenSharing ? ' on' : ''}`}
                        onClick={() => void call.toggleScreenShare()}
                        aria-pressed={view.isScreenSharing}
                        aria-label={t(view.isScreenSharing ? 'room.call.stopSharing' : 'room.call.share')}
                        data-testid="call-screen"
                      >
                        <ScreenIcon size={20} />
                      </button>
                    )}
                    <button
                      type="button"
                      className="call-button call-fullscreen"
                      onClick={fullscreen}
                      aria-label={t('room.call.fullscreen')}
                      data-testid="call-fullscreen"
                    >
                      <FullscreenIcon size={20} />
                    </button>
                    <button
                      type="button"
                      className="call-button call-end"
                      onClick={() => call.hangUp()}
                      aria-label={t('room.call.end')}
                      data-testid="call-end"
                    >
                      <HangUpIcon size={22} />
                    </button>
                  </>
                )
              )}
            </div>
          </Dialog.Content>
        </Dialog.Overlay>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
