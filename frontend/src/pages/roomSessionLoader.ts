/**
 * The one way to load the joined room's chunk (pages/RoomSession.tsx): RoomPage renders it, and the join form starts
 * the download early, at the visitor's first keystroke, so joining does not wait for it.
 */
export const loadRoomSession = () => import('./RoomSession.tsx');
