/**
 * What the room page is asked to open and what it shows, as types of their own: resolveRoom.ts decides the phase,
 * RoomPage.tsx renders it, and the joined room (RoomSession.tsx, its own chunk) reports how a session ended, without
 * importing each other.
 */
import type { AuthRecord } from '../lib/storage.ts';

export type RoomTarget =
  | { kind: 'room'; roomName: string; create: boolean; via: 'path' | 'join' }
  | { kind: 'workspace'; workspaceId: string; create: boolean };

export type Phase =
  | { kind: 'loading' }
  | {
      kind: 'overlay';
      mode: 'join' | 'create';
      roomName: string;
      workspaceId: string | null;
      isPasswordProtected: boolean;
    }
  | { kind: 'loadError'; message: string }
  | { kind: 'notFound'; message: string; roomName: string | null; redirectHome: boolean }
  | { kind: 'session'; auth: AuthRecord }
  | { kind: 'redirect'; to: string }
  | { kind: 'joinFailed'; message: string }
  | { kind: 'deleted'; message: string; byMe: boolean }
  | { kind: 'kicked'; reason: string };
