/**
 * A member's removal from a room, told to the app's other pages (docs/product/admin.md ADM13). The room page that
 * receives the kick shows its own modal; every other page of this browser (another tab on the dashboard, the
 * pricing page, ...) hears it here and shows the app-wide Removed dialog. Pages of other rooms are other members
 * (a member is per room), so they carry on.
 */
import { parseRoute } from './routes.ts';

export interface Removal {
  workspaceId: string;
  roomName: string;
  reason: string;
}

const CHANNEL = 'ephemera.removal';

const channel = (): BroadcastChannel | null =>
  typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(CHANNEL);

/** The room page that was told of the removal tells the other pages. */
export function announceRemoval(removal: Removal): void {
  const ch = channel();
  if (!ch) return;
  ch.postMessage(removal);
  ch.close();
}

const isRemoval = (v: unknown): v is Removal =>
  Boolean(v) &&
  typeof (v as Removal).workspaceId === 'string' &&
  typeof (v as Removal).roomName === 'string' &&
  typeof (v as Removal).reason === 'string';

/** Removals other pages announce; returns the unsubscribe. */
export function onRemoval(listener: (removal: Removal) => void): () => void {
  const ch = channel();
  if (!ch) return () => {};
  ch.onmessage = (e: MessageEvent) => {
    if (isRemoval(e.data)) listener(e.data);
  };
  return () => ch.close();
}

/** Whether a page at `pathname` shows the app-wide dialog: any page but a room's (that room's own session tells it). */
export const showsRemovalOn = (pathname: string): boolean => {
  const kind = parseRoute(pathname).kind;
  return kind !== 'room' && kind !== 'workspace';
};
