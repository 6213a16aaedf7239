/** The voice and video call buttons of a DM's header (docs/product/calls.md C1); free rooms open the upgrade dialog. */
import type { CallType } from '@ephemera/proto';
import { useCallActions } from './callContext.ts';
import { PhoneIcon, VideoIcon } from './CallIcons.tsx';
import { useT } from '../../i18n/i18n.ts';

export function CallButtons({ channelId, peerId, peerName }: { channelId: string; peerId: string; peerName: string }) {
  const t = useT();
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
        aria-label={t('room.call.voiceCallPeer', { name: peerName })}
        title={t('room.call.voiceCall')}
        data-testid="voice-call-button"
      >
        <PhoneIcon size={20} />
      </button>
      <button
        type="button"
        className="icon-button"
        onClick={() => start('video')}
        disabled={calls.busy}
        aria-label={t('room.call.videoCallPeer', { name: peerName })}
        title={t('room.call.videoCall')}
        data-testid="video-call-button"
      >
        <VideoIcon size={20} />
      </button>
    </div>
  );
}
