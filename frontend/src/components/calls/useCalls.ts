/**
 * Calls in the room page (RoomView): listens for incoming-call on the room's connection, offers the header's call
 * buttons (callContext.ts), and says what to show: the call window (loaded lazily), the upgrade dialog of a free
 * room, the Call Declined toast (the app's Toast), or an alert when the camera or microphone was refused.
 */
import { useEffect, useMemo, useState } from 'react';
import { S, ENTITLEMENTS, type Tier } from '@ephemera/proto/client';
import type { CallType, ServerEvents } from '@ephemera/proto';
import type { RoomSession } from '../../lib/session.ts';
import type { CallActions } from './callContext.ts';
import type { CallLaunch, CallOutcome } from './CallWindow.tsx';
import { useToast } from '../overlays/Toast.tsx';
import { t } from '../../i18n/i18n.ts';

/** `joined`: the room was joined once (the session's connection exists from then on; RoomView's parent starts it after the first render). */
export function useCalls(session: RoomSession, tier: Tier, joined: boolean) {
  const [launch, setLaunch] = useState<CallLaunch | null>(null);
  const [upgrade, setUpgrade] = useState<CallType | null>(null);
  const toast = useToast();

  useEffect(() => {
    const socket = session.realtime as unknown as {
      on(e: string, h: (...a: never[]) => void): void;
      off(e: string, h: (...a: never[]) => void): void;
    } | null;
    if (!socket) return;
    const incoming: ServerEvents[typeof S.incomingCall] = (p) => {
      setLaunch(
        (current) =>
          current ?? {
            direction: 'incoming',
            channelId: p.channelId,
            peerId: p.callerId,
            peerName: p.callerName,
            callType: p.callType,
            tier,
          },
      );
    };
    // also before the lazily loaded window listens itself: a call that ends while its code loads goes away
    const ended: ServerEvents[typeof S.callEnded] = (p) => {
      setLaunch((current) => (current?.channelId === p.channelId ? null : current));
    };
    socket.on(S.incomingCall, incoming);
    socket.on(S.callEnded, ended);
    return () => {
      socket.off(S.incomingCall, incoming);
      socket.off(S.callEnded, ended);
    };
  }, [session, joined, tier]);

  const actions = useMemo<CallActions>(
    () => ({
      allowed: (callType) => (callType === 'video' ? ENTITLEMENTS[tier].videoCalls : ENTITLEMENTS[tier].voiceCalls),
      call: (input) => {
        const allowed = input.callType === 'video' ? ENTITLEMENTS[tier].videoCalls : ENTITLEMENTS[tier].voiceCalls;
        if (!allowed) {
          setUpgrade(input.callType);
          return;
        }
        setLaunch((current) => current ?? { direction: 'outgoing', ...input, tier });
      },
      busy: launch !== null,
    }),
    [tier, launch],
  );

  const close = (outcome: CallOutcome) => {
    setLaunch(null);
    if (outcome.declined)
      toast.show({
        type: 'info',
        title: t('room.call.declined.title'),
        message: t('room.call.declined.text', { name: outcome.peerName }),
        testId: 'call-toast',
      });
    else if (outcome.mediaDenied && outcome.error)
      window.alert(outcome.error); // the spec's alert
    else if (outcome.error)
      toast.show({ type: 'error', title: t('room.call.status.ended'), message: outcome.error, testId: 'call-toast' });
  };

  return { actions, launch, close, upgrade, closeUpgrade: () => setUpgrade(null) };
}
