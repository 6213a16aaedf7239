/**
 * The call window's buttons (docs/product/calls.md C6): accept and reject while ringing; then mute, camera and screen
 * sharing (video calls; sharing once connected), fullscreen and end. Each acts on the call's CallController.
 */
import type { CallController } from '../../lib/calls/callController.ts';
import type { CallView } from '../../lib/calls/callView.ts';
import { useT } from '../../i18n/i18n.ts';
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

interface Props {
  call: CallController;
  view: CallView;
  onFullscreen(): void;
}

export function CallControls({ call, view, onFullscreen }: Props) {
  const t = useT();
  const video = view.callType === 'video';
  const inCall =
    view.phase === 'connecting' ||
    view.phase === 'connected' ||
    view.phase === 'outgoing' ||
    view.phase === 'preparing';
  return (
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
              onClick={onFullscreen}
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
  );
}
