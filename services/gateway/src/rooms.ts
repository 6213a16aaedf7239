/** Socket.IO room names: one place, so recipients are chosen consistently. */
export const workspaceRoom = (workspaceId: string) => `ws:${workspaceId}`;
export const userRoom = (userId: string) => `u:${userId}`;
