/**
 * What the room page shows first (docs/product/rooms.md R5, R11): a direct join from stored auth,
 * the join overlay for an existing room, the setup overlay for a new one, or an error.
 */
import { api } from '../lib/api.ts';
import { clearRoomData, readAuth, saveAuth, sameRoomName } from '../lib/storage.ts';
import { UI_TEXT } from '../lib/texts.ts';
import { t } from '../i18n/i18n.ts';
import { errorText } from '../i18n/errorText.ts';
import { dashboardSignIn, lookupRoom } from './roomLookup.ts';
import type { Phase, RoomTarget } from './roomPhase.ts';

// the texts come from the roomside catalog, which the room page loads before it resolves (docs/i18n.md)
const roomInfoFailed = (r: { kind: string }) =>
  r.kind === 'http' ? t('roomside.load.roomInfoFailed') : t('roomside.load.roomInfoNetwork');
const workspaceInfoFailed = (r: { kind: string }) =>
  r.kind === 'http' ? t('roomside.load.workspaceInfoFailed') : t('roomside.load.workspaceInfoNetwork');

/** ?workspaceId=&username=&token= (dashboard links): store them as the auth record. The caller strips them. */
export function consumeTokenParams(search: string, roomName: string): boolean {
  const signIn = dashboardSignIn(search);
  if (!signIn) return false;
  saveAuth({ ...signIn, roomName, password: null });
  return true;
}

export async function resolveRoom(target: RoomTarget, signal: AbortSignal): Promise<Phase | null> {
  const auth = readAuth();

  if (target.kind === 'workspace') {
    if (auth && auth.workspaceId === target.workspaceId)
      return { kind: 'redirect', to: `/${encodeURIComponent(auth.roomName)}` };
    const r = await api.info(target.workspaceId, { signal });
    if (r.ok) {
      if (auth) clearRoomData(auth.workspaceId);
      return {
        kind: 'overlay',
        mode: 'join',
        roomName: r.data.name,
        workspaceId: r.data.workspaceId ?? target.workspaceId,
        isPasswordProtected: Boolean(r.data.isPasswordProtected),
      };
    }
    if (r.kind === 'aborted') return null;
    if (r.kind === 'http' && r.status === 404)
      return { kind: 'notFound', message: errorText('WORKSPACE_NOT_FOUND', ''), roomName: null, redirectHome: true };
    return { kind: 'loadError', message: workspaceInfoFailed(r) };
  }

  const { roomName } = target;
  if (auth) {
    if (sameRoomName(auth.roomName, roomName)) return { kind: 'session', auth };
    // stored auth of another room: forget it and its last channel
    clearRoomData(auth.workspaceId);
  }

  const r = await lookupRoom(roomName, { signal });
  if (signal.aborted) return null;
  if (r.ok) {
    return {
      kind: 'overlay',
      mode: 'join',
      roomName: r.data.name || roomName,
      workspaceId: r.data.workspaceId,
      isPasswordProtected: Boolean(r.data.isPasswordProtected),
    };
  }
  if (r.kind === 'aborted') return null;
  if (r.kind === 'http' && r.status === 404) {
    if (target.via === 'join' && !target.create) {
      return {
        kind: 'notFound',
        message: t('roomside.load.roomMissing', { roomName }),
        roomName,
        redirectHome: false,
      };
    }
    return { kind: 'overlay', mode: 'create', roomName, workspaceId: null, isPasswordProtected: false };
  }
  if (target.via === 'join' && !target.create) {
    return {
      kind: 'notFound',
      message: roomInfoFailed(r),
      roomName,
      redirectHome: false,
    };
  }
  // the room page asked whether the room exists (to join it or set it up) and got no answer
  return { kind: 'loadError', message: r.kind === 'http' ? UI_TEXT.roomCheckFailed : UI_TEXT.roomCheckNetwork };
}
