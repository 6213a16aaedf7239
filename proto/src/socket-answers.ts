/**
 * What the server sends on a socket: the acks' form (Ack; each command's ack data is in its row of the command table,
 * commands.ts, which makes ClientAcks from them) and the server's own events (ServerEvents), with the shapes they
 * carry. Apart from socket.ts, which holds what clients send (the payload schemas), so each side reads as one page.
 */
import type { Tier } from './limits.ts';
import type { CustomTheme, ThemeId } from './tiers.ts';
import type { Workspace, RoomUser, Channel, Message, WorkspaceSettings, PresenceStatusSchema } from './models.ts';
import type { ErrorBody } from './errors.ts';
import type { z } from 'zod';
import { S } from './names.ts';
import type { CallType, CallEndReason, WebrtcSignalPayload } from './socket.ts';

/** the answer of a command whose success carries nothing more */
export type NoFields = Record<never, never>;
/** Every ack is either { success: true, ...data } or an ErrorBody with success: false. */
export type Ack<T> = ({ success: true } & T) | (ErrorBody & { success: false });

/** A room's changeable properties, sent whole after any change (workspace-updated) so a client converges. */
export interface WorkspaceUpdate {
  workspaceId: string;
  name: string;
  isPasswordProtected: boolean;
  expiresAt: string | null;
  tier: Tier;
  settings: WorkspaceSettings;
}
/**
 * The theme an admin broadcast to the room (kept by the room service; new members get it on join). `logoSrc` is the
 * custom logo as a same-origin signed image-proxy path (`/api/link-preview/image?u=...&s=...`), made by the server;
 * null without a logo. Clients show `logoSrc`, never `customTheme.logoUrl` (img-src 'self').
 */
export interface RoomTheme {
  themeId: ThemeId;
  customTheme: CustomTheme | null;
  changedBy: string;
  changedByName: string;
  logoSrc: string | null;
}

export type PresenceStatus = z.infer<typeof PresenceStatusSchema>;
export interface OnlineUser {
  id: string;
  username: string;
  isAdmin: boolean;
  presenceStatus: PresenceStatus;
}

/**
 * A page of the online list: its users in the order of their ids, the id to ask the next page after (null: this was
 * the last), and how many are online in the whole room.
 */
export interface OnlinePage {
  users: OnlineUser[];
  next: string | null;
  onlineCount: number;
}

/** One presence change of a presence-batch frame: what user-joined, user-left or user-presence-updated would carry. */
export type PresenceChange =
  | { kind: 'joined'; user: OnlineUser }
  | { kind: 'left'; userId: string; username: string; membershipEnded?: boolean }
  | { kind: 'status'; userId: string; status: PresenceStatus };

/**
 * A big room's presence changes of one window (BIG_ROOM.coalesceWindowMs), in the order they happened; applied in
 * order they leave the client where the single events would. `typing`: per public channel whose hidden typers
 * changed in the window, how many typers beyond the ones shown (user-typing) are typing now (0: none any more).
 */
export interface PresenceBatch {
  workspaceId: string;
  changes: PresenceChange[];
  typing?: { channelId: string; others: number }[];
}

export interface ServerEvents {
  [S.workspaceJoined]: (p: { workspace: Workspace; user: RoomUser }) => void;
  [S.messagesHistory]: (p: { channelId: string; messages: Message[]; hasMore: boolean }) => void;
  [S.message]: (m: Message) => void;
  [S.messageEdited]: (p: {
    workspaceId: string;
    channelId: string;
    messageId: string;
    content: string;
    isEdited: true;
    editedAt: string;
  }) => void;
  [S.messageDeleted]: (p: { workspaceId: string; channelId: string; messageId: string }) => void;
  /** the message's whole reactions map after the change, so every client converges whatever it missed */
  [S.reactionAdded]: (p: {
    workspaceId: string;
    channelId: string;
    messageId: string;
    emoji: string | null;
    userId: string;
    reactions: Record<string, string[]>;
  }) => void;
  [S.readPositionUpdated]: (p: { workspaceId: string; channelId: string; userId: string; seq: number }) => void;
  [S.channelCreated]: (c: Channel) => void;
  [S.channelUpdated]: (c: Channel) => void;
  /** also sent to a member removed from a private channel: it is gone for them */
  [S.channelDeleted]: (p: { workspaceId: string; channelId: string }) => void;
  [S.dmDeletedForUser]: (p: { workspaceId: string; channelId: string }) => void;
  [S.autoOpenDm]: (p: { workspaceId: string; channelId: string; channel: Channel }) => void;
  /**
   * after join-workspace: the online list's first page (the whole list in a room within one page), with `onlineCount`
   * and `next` as fetch-online-users answers them
   */
  [S.onlineUsers]: (p: {
    workspaceId: string;
    users: OnlineUser[];
    onlineCount?: number;
    next?: string | null;
  }) => void;
  [S.presenceBatch]: (p: PresenceBatch) => void;
  [S.userJoined]: (p: { workspaceId: string; user: OnlineUser }) => void;
  /** membershipEnded: the user left the room for good (leave-workspace), not only went offline */
  [S.userLeft]: (p: { workspaceId: string; userId: string; username: string; membershipEnded?: boolean }) => void;
  [S.userPresenceUpdated]: (p: { workspaceId: string; userId: string; status: PresenceStatus }) => void;
  [S.userTyping]: (p: { workspaceId: string; channelId: string; userId: string; username: string }) => void;
  [S.userStoppedTyping]: (p: { workspaceId: string; channelId: string; userId: string }) => void;
  [S.userProfileUpdated]: (p: {
    workspaceId: string;
    userId: string;
    username: string;
    profilePicture: string | null;
  }) => void;
  [S.workspaceDeleted]: (p: { workspaceId: string; message: string }) => void;
  /** to the kicked user's sockets only (then they are disconnected) */
  [S.kicked]: (p: { workspaceId: string; reason: string; kickedBy: string }) => void;
  /**
   * to the sockets joined with a member token that was just replaced (a claim, a new owner token): their session has
   * ended; the client joins again with the token it holds now, and a browser that holds only the old one is refused
   */
  [S.sessionReplaced]: (p: { workspaceId: string }) => void;
  /** to everyone else in the room */
  [S.userKicked]: (p: { workspaceId: string; userId: string; kickedBy: string }) => void;
  [S.workspaceUpdated]: (p: WorkspaceUpdate) => void;
  [S.themeChanged]: (p: { workspaceId: string } & RoomTheme) => void;
  /** a member's role changed (set-member-role) */
  [S.userUpdated]: (p: { workspaceId: string; user: RoomUser }) => void;
  /** to every socket of the callee */
  [S.incomingCall]: (p: {
    workspaceId: string;
    channelId: string;
    callerId: string;
    callerName: string;
    callType: CallType;
  }) => void;
  /** to every socket of the caller (the callee's other sockets get call-ended 'answered-elsewhere') */
  [S.callAccepted]: (p: { channelId: string; accepterId: string; accepterName: string }) => void;
  [S.callRejected]: (p: { channelId: string; rejecterId: string; rejecterName: string }) => void;
  /** to both parties' sockets: the call is over (hang-up, no answer in time, a party gone) */
  [S.callEnded]: (p: { channelId: string; reason: CallEndReason; endedBy: string | null }) => void;
  /** from the other party of the active call */
  [S.webrtcSignal]: (p: { channelId: string; fromUserId: string; signal: WebrtcSignalPayload }) => void;
}
