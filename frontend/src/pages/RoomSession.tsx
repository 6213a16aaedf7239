/**
 * The joined room: the realtime session of a stored auth record and the room's views. Loaded on demand by RoomPage
 * (through roomSessionLoader.ts), so the join form shows before this code has downloaded.
 */
import { useEffect, useState } from 'react';
import { RoomView } from '../components/RoomView.tsx';
import { RoomSession } from '../lib/session.ts';
import { roomPath } from '../lib/routes.ts';
import { announceRemoval } from '../lib/removal.ts';
import type { AuthRecord } from '../lib/storage.ts';
import { errorText } from '../i18n/errorText.ts';
import type { Phase } from './roomPhase.ts';

/** Owns the realtime session for a stored auth record while the room is open. */
export function SessionHost({ auth, onPhase }: { auth: AuthRecord; onPhase(p: Phase): void }) {
  const [session] = useState(
    () =>
      new RoomSession(auth, {
        onJoinRefused: (message) => onPhase({ kind: 'joinFailed', message }),
        onWorkspaceDeleted: (message, byMe) => onPhase({ kind: 'deleted', message, byMe }),
        onKicked: (reason) => {
          // the member's other pages in this browser show the app-wide Removed dialog
          // in the active language: the other pages show it as it comes (their dialog does not load the room's texts)
          announceRemoval({ workspaceId: auth.workspaceId, roomName: auth.roomName, reason: errorText(null, reason) });
          onPhase({ kind: 'kicked', reason });
        },
      }),
  );

  useEffect(() => {
    session.start();
    return () => session.stop();
  }, [session]);

  // the address shows the room's own spelling once known
  useEffect(() => {
    const canonical = roomPath(auth.roomName);
    if (window.location.pathname !== canonical && window.location.pathname.split('/').length === 2) {
      window.history.replaceState(
        window.history.state,
        '',
        `${canonical}${window.location.search}${window.location.hash}`,
      );
    }
  }, [auth.roomName]);

  return <RoomView session={session} roomName={auth.roomName} />;
}
