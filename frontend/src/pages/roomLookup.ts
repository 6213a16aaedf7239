/**
 * The room page's first question, "does this room exist?", asked as soon as the app starts on a room's address,
 * together with the texts' download, instead of after the room page's code has run and rendered: on a phone's link
 * that is one round trip less before the join form shows. resolveRoom.ts takes the early answer when it is for the
 * same room; anything else asks again. A saved session's room starts its joined room's code instead.
 */
import { api, type ApiResult, type CallOptions } from '../lib/api.ts';
import { readAuth, sameRoomName } from '../lib/storage.ts';
import type { RoomLookupAnswer } from '@ephemera/proto';
import { loadRoomSession } from './roomSessionLoader.ts';

/** A dashboard link's sign-in parameters (?workspaceId=&username=&token=), all three, or null. */
export function dashboardSignIn(search: string): { workspaceId: string; username: string; userToken: string } | null {
  const params = new URLSearchParams(search);
  const workspaceId = params.get('workspaceId');
  const username = params.get('username');
  const userToken = params.get('token');
  return workspaceId && username && userToken ? { workspaceId, username, userToken } : null;
}

let early: { roomName: string; answer: Promise<ApiResult<RoomLookupAnswer>> } | null = null;

/**
 * Starts what the room page needs first: the lookup, for a room address opened without a saved session for that
 * room; with one (or with the dashboard's sign-in parameters, which become one) the room opens without asking, and
 * the joined room's code starts downloading instead.
 */
export function startRoomLookup(roomName: string, search: string): void {
  const auth = readAuth();
  if ((auth && sameRoomName(auth.roomName, roomName)) || dashboardSignIn(search)) {
    void loadRoomSession().catch(() => {}); // a failed download is tried again when the room page renders it
    return;
  }
  early = { roomName, answer: api.roomByName(roomName) };
}

/** The room's lookup: the early one when it was for this room (used once), else a new request. */
export function lookupRoom(roomName: string, opts: CallOptions): Promise<ApiResult<RoomLookupAnswer>> {
  const started = early;
  early = null;
  if (started && started.roomName === roomName) return started.answer;
  return api.roomByName(roomName, opts);
}
