/**
 * Room administration as the room's members see it (docs/product/rooms.md R21-R27): the room's changeable
 * properties (workspace-updated: name, lock, expiry, tier and limits), members' roles (user-updated), kicked
 * members (user-kicked) and the theme an admin broadcast (theme-changed). Data only; the sidebar and the settings
 * panel render it.
 */
import type { RoomTheme, RoomUser, WorkspaceUpdate } from '@ephemera/proto';
import type { RoomState } from './roomCore.ts';

export type RoomAdminAction =
  | { type: 'workspaceUpdated'; update: WorkspaceUpdate }
  | { type: 'memberUpdated'; user: RoomUser }
  | { type: 'memberKicked'; userId: string }
  | { type: 'themeBroadcast'; theme: RoomTheme };

export function roomAdminReducer(state: RoomState, action: RoomAdminAction | { type: string }): RoomState {
  const a = action as RoomAdminAction;
  const ws = state.workspace;
  switch (a.type) {
    case 'workspaceUpdated': {
      const u = a.update;
      if (!ws || u.workspaceId !== ws.id) return state;
      return {
        ...state,
        workspace: {
          ...ws,
          name: u.name,
          isPasswordProtected: u.isPasswordProtected,
          expiresAt: u.expiresAt,
          tier: u.tier,
          settings: u.settings,
        },
      };
    }
    case 'memberUpdated': {
      const next = a.user;
      const merge = <U extends { id: string; isAdmin: boolean }>(u: U): U =>
        u.id === next.id ? { ...u, isAdmin: next.isAdmin } : u;
      const known = ws?.users.some((u) => u.id === next.id);
      return {
        ...state,
        workspace: ws
          ? {
              ...ws,
              users: known
                ? ws.users.map((u) => (u.id === next.id ? { ...u, ...next, presenceStatus: u.presenceStatus } : u))
                : [...ws.users, next],
            }
          : ws,
        user:
          state.user && state.user.id === next.id
            ? { ...state.user, isAdmin: next.isAdmin, isOwner: next.isOwner }
            : state.user,
        online: state.online.map(merge),
      };
    }
    case 'memberKicked':
      return {
        ...state,
        online: state.online.filter((u) => u.id !== a.userId),
        workspace: ws ? { ...ws, users: ws.users.filter((u) => u.id !== a.userId) } : ws,
      };
    case 'themeBroadcast':
      return ws ? { ...state, workspace: { ...ws, theme: a.theme } } : state;
    default:
      return state;
  }
}
