/**
 * Event names and the client's connection settings: plain constants (no zod), so the browser bundle can import them
 * without the schemas (proto/src/client.ts). The payload schemas are in socket.ts, the ack types in commands.ts.
 */
/**
 * The workspace-deleted event's text (docs/product/rooms.md R27, R36): what a member sees when the room ends under
 * them. The owner who deleted it sees the success text instead (their own command's answer).
 */
export const ROOM_ENDED_TEXT = {
  deleted: 'This chat room has been deleted.',
  expired: 'This room has expired',
} as const;

/** Client -> server event names (docs/protocol.md, which marks the ones this product adds). */
export const C = {
  joinWorkspace: 'join-workspace',
  createChannel: 'create-channel',
  joinChannel: 'join-channel',
  sendMessage: 'send-message',
  fetchMessages: 'fetch-messages',
  syncMessages: 'sync-messages',
  leaveWorkspace: 'leave-workspace',
  createDmChannel: 'create-dm-channel',
  deleteDm: 'delete-dm',
  deleteChannel: 'delete-channel',
  renameChannel: 'rename-channel',
  updateChannelMembers: 'update-channel-members',
  editMessage: 'edit-message',
  deleteMessage: 'delete-message',
  addReaction: 'add-reaction',
  markRead: 'mark-read',
  fetchChannelSummaries: 'fetch-channel-summaries',
  searchMessages: 'search-messages',
  typingStart: 'typing-start',
  typingStop: 'typing-stop',
  updatePresence: 'update-presence',
  updateProfile: 'update-profile',
  /** ours: the next page of the online list (a big room's join sends its count and first page only) */
  fetchOnlineUsers: 'fetch-online-users',
  // room administration (docs/protocol.md)
  renameWorkspace: 'rename-workspace',
  setWorkspacePassword: 'set-workspace-password',
  setWorkspaceMaxUsers: 'set-workspace-max-users',
  extendWorkspace: 'extend-workspace',
  deleteWorkspace: 'delete-workspace',
  kickUser: 'kick-user',
  broadcastTheme: 'broadcast-theme',
  /** ours: the owner makes a member an admin or back (the spec's Admin role needs a way in; docs/protocol.md) */
  setMemberRole: 'set-member-role',
  // 1:1 calls in a DM (relayed, never stored in the log: docs/calls.md)
  startCall: 'start-call',
  acceptCall: 'accept-call',
  rejectCall: 'reject-call',
  endCall: 'end-call',
  webrtcSignal: 'webrtc-signal',
} as const;

/** Server -> client event names. */
export const S = {
  workspaceJoined: 'workspace-joined',
  messagesHistory: 'messages-history',
  message: 'message',
  messageEdited: 'message-edited',
  messageDeleted: 'message-deleted',
  reactionAdded: 'reaction-added',
  readPositionUpdated: 'read-position-updated',
  channelCreated: 'channel-created',
  channelUpdated: 'channel-updated',
  channelDeleted: 'channel-deleted',
  dmDeletedForUser: 'dm-deleted-for-user',
  autoOpenDm: 'auto-open-dm',
  onlineUsers: 'online-users',
  /** ours: a big room's presence changes of one window in one frame (docs/protocol.md) */
  presenceBatch: 'presence-batch',
  userJoined: 'user-joined',
  userLeft: 'user-left',
  userPresenceUpdated: 'user-presence-updated',
  userTyping: 'user-typing',
  userStoppedTyping: 'user-stopped-typing',
  userProfileUpdated: 'user-profile-updated',
  workspaceDeleted: 'workspace-deleted',
  kicked: 'kicked',
  sessionReplaced: 'session-replaced',
  userKicked: 'user-kicked',
  workspaceUpdated: 'workspace-updated',
  themeChanged: 'theme-changed',
  userUpdated: 'user-updated',
  // calls (docs/protocol.md)
  incomingCall: 'incoming-call',
  callAccepted: 'call-accepted',
  callRejected: 'call-rejected',
  callEnded: 'call-ended',
  webrtcSignal: 'webrtc-signal',
} as const;

/** The client's connection settings (docs/product/rooms.md R13). */
export const CLIENT_CONNECTION = {
  transports: ['polling', 'websocket'] as string[],
  reconnectionDelay: 1000,
  reconnectionDelayMax: 5000,
  randomizationFactor: 0.5,
  timeout: 20000,
  maxConsecutiveErrors: 5,
  manualRetryAfterMs: 3000,
  joinTimeoutMs: 20000,
  waitForConnectionMs: 10000,
};
