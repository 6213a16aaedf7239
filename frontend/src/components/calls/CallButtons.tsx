/** The voice and video call buttons of a DM's header (docs/product/calls.md C1); free rooms open the upgrade dialog. */
import type { CallType } from '@ephemera/proto';
import { useCallActions } from './callContext.ts';
import { PhoneIcon, VideoIcon } from './CallIcons.tsx';

export function CallButtons({ channelId, peerId, peerName }: { channelId: string; peerId: string; peerName: string }) {
  const calls = useCallActions();
  if (!calls) return null;
  const start = (callType: CallType) => calls.call({ channelId, peerId, peerName, callType });
  return (
    <div className="chat-call-buttons" style={{ display: 'flex', gap: 4, marginLeft: 'auto' }}>
      <button
        type="button"
        className="icon-button"
        onClick={() => start('audio')}
        disabled={calls.busy}
        aria-label={`Voice call ${peerName}`}
        title="Voice call"
        data-testid="voice-call-button"
      >
        <PhoneIcon size={20} />
      </button>
      <button
        type="button"
        className="icon-button"
        onClick={() => start('video')}
        disabled={calls.busy}
        aria-label={`Video call ${peerName}`}
        title="Video call"
        data-testid="video-call-button"
      >
        <VideoIcon size={20} />
      </button>
    </div>
  );
}
