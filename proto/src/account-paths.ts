/** Account API paths and constants without zod: shared by billing, the ingress, the tests and the browser bundle. */

/** what the user types to delete the account (docs/product/accounts.md A11) */
export const DELETE_CONFIRMATION = 'DELETE';
/** the account's username limit (the join form's is 20: models.ts UsernameSchema); the browser words its refusal */
export const ACCOUNT_USERNAME_MAX = 30;

/** Account API paths (the ingress sends /api/auth/ to billing). */
export const AUTH_PREFIX = '/api/auth/';
export const AUTH_API = {
  requestCode: '/api/auth/request-code',
  register: '/api/auth/register',
  login: '/api/auth/login',
  googleStart: '/api/auth/google/start',
  /** whether Google sign-in is configured: the pages offer it only then */
  googleStatus: '/api/auth/google/status',
  googleCallback: '/api/auth/google/callback',
  googleAuth: '/api/auth/google-auth',
  profile: '/api/auth/profile',
  recoverUsername: '/api/auth/recover-username',
  updateUsername: '/api/auth/update-username',
  autoRenewal: '/api/auth/auto-renewal',
  exportData: '/api/auth/export-data',
  generateRoomToken: '/api/auth/generate-room-token',
  deleteAccount: '/api/auth/delete-account',
  logout: '/api/auth/logout',
  logoutAll: '/api/auth/logout-all',
  /** the spec's account calls that need payments (billing payments/http.ts) */
  upgradeRooms: '/api/auth/upgrade-rooms',
  renewSubscription: '/api/auth/renew-subscription',
  createPaidAccount: '/api/auth/create-paid-account',
  dashboardRoom: (roomId: string) => `/api/auth/rooms/${encodeURIComponent(roomId)}`,
  claimOwnership: (workspaceId: string) => `/api/workspaces/${encodeURIComponent(workspaceId)}/claim-ownership`,
  deleteWorkspace: (workspaceId: string) => `/api/workspaces/${encodeURIComponent(workspaceId)}`,
} as const;
