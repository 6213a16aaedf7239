/**
 * The call window's picture area (docs/product/calls.md C6): the other person's video or audio, their avatar and name
 * while their camera is off or the call is not yet connected, the status line with the running time once connected,
 * and the local preview tagged "You" (this member's avatar while the camera is off).
 */
import { useEffect, useRef, useState } from 'react';
import type { CallPhase, CallView } from '../../lib/calls/callView.ts';
import { formatDuration } from '../../lib/fileUpload.ts';
import { PersonAvatar } from '../sidebar/PersonAvatar.tsx';
import { useT, type MessageId } from '../../i18n/i18n.ts';

const STATUS: Record<CallPhase, MessageId> = {
  preparing: 'room.call.status.preparing',
  outgoing: 'room.call.status.outgoing',
  incoming: 'room.call.status.incoming',
  connecting: 'room.call.status.connecting',
  connected: 'room.call.status.connected',
  ended: 'room.call.status.ended',
};

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

export function CallStage({ view, self }: { view: CallView; self: CallSelf }) {
  const t = useT();
  const video = view.callType === 'video';
  return (
    <div className="call-stage">
      {video && <Media stream={view.remoteStream} muted={false} className="call-remote" testId="call-remote-video" />}
      {!video && <Media stream={view.remoteStream} muted={false} className="" testId="call-remote-audio" audioOnly />}
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
  );
}
