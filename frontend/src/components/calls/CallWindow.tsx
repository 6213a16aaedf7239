/**
 * The call window (docs/product/calls.md C6): incoming (accept, reject), then in-call with mute,
 * camera toggle (video calls), screen sharing (video calls), end and fullscreen (desktop). Status texts: Preparing...,
 * Waiting for response..., Connecting..., Connected, with the call's running time once connected. Each picture carries
 * its person's name (the local one "You"); a camera that is off shows the person's avatar instead of black frames.
 * At most 5xl wide and 90% high; the local preview is 192x144. The pictures are CallStage.tsx, the buttons
 * CallControls.tsx; this file holds the dialog, the call's lifetime and fullscreen.
 * Loaded lazily (RoomView, its one host): WebRTC code is not in the room page's initial JavaScript. A Radix dialog:
 * focus moves into the window and back when it closes; Escape and clicks outside do not end a call.
 */
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import type { CallType, Tier } from '@ephemera/proto';
import type { RoomSocket } from '../../lib/socket.ts';
import { CallController } from '../../lib/calls/callController.ts';
import type { CallView } from '../../lib/calls/callView.ts';
import { t as translate, useCatalog, useT } from '../../i18n/i18n.ts';
import { CallControls } from './CallControls.tsx';
import { CallStage, type CallSelf } from './CallStage.tsx';
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
            <CallStage view={view} self={self} />
            {hint && (
              <p className="call-hint" role="alert">
                {hint}
              </p>
            )}
            <CallControls call={call} view={view} onFullscreen={fullscreen} />
          </Dialog.Content>
        </Dialog.Overlay>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
