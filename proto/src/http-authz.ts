/**
 * The HTTP half of the authorization table (docs/product/security.md S1): every public route by id, and which roles
 * may call it. Routes are registered only from these rows (publicRoute); test/authz/ walks every row. Apart from the
 * socket half (authz.ts), which shares its roles (authz-roles.ts).
 */
import { EVERYONE, MEMBERS, OWNER, ACCOUNTS, ROOM_OWNER_ACCOUNT, SUPERADMIN, type Rule } from './authz-roles.ts';

/** HTTP routes by id (method and path pattern as the routers declare them). */
export const HTTP_ROUTES = {
  checkName: { method: 'GET', path: '/api/workspaces/check-name/:name' },
  roomByName: { method: 'GET', path: '/api/workspaces/room/:roomName' },
  info: { method: 'GET', path: '/api/workspaces/:id/info' },
  checkUsername: { method: 'GET', path: '/api/workspaces/:id/check-username/:username' },
  createWorkspace: { method: 'POST', path: '/api/workspaces' },
  joinWorkspace: { method: 'POST', path: '/api/workspaces/:id/join' },
  linkPreview: { method: 'POST', path: '/api/link-preview/fetch' },
  linkPreviewImage: { method: 'GET', path: '/api/link-preview/image' },
  extendRoom: { method: 'POST', path: '/api/workspaces/extend-room' },
  uploadFile: { method: 'POST', path: '/api/workspaces/:workspaceId/files' },
  fileLink: { method: 'GET', path: '/api/workspaces/:workspaceId/files/:fileId/link' },
  downloadFile: { method: 'GET', path: '/api/workspaces/:workspaceId/files/:fileId' },
  // accounts (billing; docs/protocol.md "Accounts (billing)")
  requestCode: { method: 'POST', path: '/api/auth/request-code' },
  register: { method: 'POST', path: '/api/auth/register' },
  login: { method: 'POST', path: '/api/auth/login' },
  googleStart: { method: 'GET', path: '/api/auth/google/start' },
  googleStatus: { method: 'GET', path: '/api/auth/google/status' },
  googleCallback: { method: 'GET', path: '/api/auth/google/callback' },
  googleAuth: { method: 'POST', path: '/api/auth/google-auth' },
  recoverUsername: { method: 'POST', path: '/api/auth/recover-username' },
  profile: { method: 'GET', path: '/api/auth/profile' },
  updateUsername: { method: 'POST', path: '/api/auth/update-username' },
  autoRenewal: { method: 'POST', path: '/api/auth/auto-renewal' },
  exportData: { method: 'GET', path: '/api/auth/export-data' },
  generateRoomToken: { method: 'POST', path: '/api/auth/generate-room-token' },
  deleteAccount: { method: 'DELETE', path: '/api/auth/delete-account' },
  removeDashboardRoom: { method: 'DELETE', path: '/api/auth/rooms/:roomId' },
  logout: { method: 'POST', path: '/api/auth/logout' },
  logoutAll: { method: 'POST', path: '/api/auth/logout-all' },
  claimOwnership: { method: 'POST', path: '/api/workspaces/:id/claim-ownership' },
  deleteWorkspace: { method: 'DELETE', path: '/api/workspaces/:id' },
  // payments (billing; docs/protocol.md "Payments (billing)", proto/src/payments.ts)
  createCheckoutSession: { method: 'POST', path: '/api/payments/create-checkout-session' },
  createRoomExtensionPayment: { method: 'POST', path: '/api/payments/create-room-extension-payment' },
  completeRoomExtension: { method: 'POST', path: '/api/payments/complete-room-extension/:orderId' },
  subscriptionStatus: { method: 'GET', path: '/api/payments/subscription-status/:email' },
  createPortalSession: { method: 'POST', path: '/api/payments/create-portal-session' },
  verifyPayment: { method: 'GET', path: '/api/payments/verify-session/:sessionId' },
  paymentWebhook: { method: 'POST', path: '/api/payments/webhook' },
  subscriptionUpdate: { method: 'POST', path: '/api/auth/subscription/update' },
  // the spec's account calls that need payments (billing payments/http.ts; bodies in proto/src/payments.ts)
  upgradeRooms: { method: 'POST', path: '/api/auth/upgrade-rooms' },
  renewSubscription: { method: 'POST', path: '/api/auth/renew-subscription' },
  createPaidAccount: { method: 'POST', path: '/api/auth/create-paid-account' },
  // the contact form (billing; docs/product/accounts.md A13, proto/src/contact.ts)
  contact: { method: 'POST', path: '/api/contact' },
  // the superadmin (admin-analytics; docs/product/admin.md, proto/src/admin.ts)
  adminConfig: { method: 'GET', path: '/api/admin/config' },
  adminUpdateConfig: { method: 'PUT', path: '/api/admin/config' },
  adminCleanupStatus: { method: 'GET', path: '/api/admin/cleanup/status' },
  adminCleanupRun: { method: 'POST', path: '/api/admin/cleanup/run' },
  adminDatabaseCleanup: { method: 'POST', path: '/api/admin/maintenance/cleanup' },
  adminDashboard: { method: 'GET', path: '/api/admin/analytics/dashboard' },
  adminReport: { method: 'GET', path: '/api/admin/analytics/report' },
  adminCustomRevenue: { method: 'GET', path: '/api/admin/analytics/revenue/custom' },
  adminResetRevenue: { method: 'POST', path: '/api/admin/analytics/reset-revenue' },
  adminUsers: { method: 'GET', path: '/api/admin/users' },
  adminDeleteUser: { method: 'DELETE', path: '/api/admin/users/:email' },
  adminSuspendUser: { method: 'POST', path: '/api/admin/users/:email/suspend' },
  adminSetSubscription: { method: 'PUT', path: '/api/admin/users/:email/subscription' },
  adminUpgradeUser: { method: 'POST', path: '/api/admin/users/:email/admin-upgrade' },
  adminRooms: { method: 'GET', path: '/api/admin/rooms' },
  adminDeleteRoom: { method: 'DELETE', path: '/api/admin/rooms/:id' },
  adminExtendRoom: { method: 'POST', path: '/api/admin/rooms/:id/extend' },
  adminRoomMessages: { method: 'GET', path: '/api/admin/rooms/:id/messages' },
  adminFeedback: { method: 'GET', path: '/api/admin/feedback' },
  adminFeedbackStatus: { method: 'PUT', path: '/api/admin/feedback/:id/status' },
  adminDeleteFeedback: { method: 'DELETE', path: '/api/admin/feedback/:id' },
  adminStorageUsage: { method: 'GET', path: '/api/admin/storage-usage' },
  adminBackupList: { method: 'GET', path: '/api/admin/backup/list' },
  adminBackupGenerate: { method: 'POST', path: '/api/admin/backup/generate' },
  adminBackupImport: { method: 'POST', path: '/api/admin/backup/import' },
  adminBackupDownload: { method: 'GET', path: '/api/admin/backup/download/:filename' },
  adminExport: { method: 'GET', path: '/api/admin/export/:kind' },
  adminMaintenance: { method: 'POST', path: '/api/admin/maintenance' },
  adminAudit: { method: 'GET', path: '/api/admin/audit' },
  pageview: { method: 'POST', path: '/api/admin/analytics/pageview' },
  maintenanceStatus: { method: 'GET', path: '/api/maintenance' },
} as const;
export type HttpRouteId = keyof typeof HTTP_ROUTES;

export const HTTP_AUTHZ: { readonly [R in HttpRouteId]: Rule } = {
  checkName: { allow: EVERYONE, also: 'rate-limited per address' },
  roomByName: { allow: EVERYONE, also: 'answers no member data' },
  info: { allow: EVERYONE, also: 'answers no member data' },
  checkUsername: { allow: EVERYONE, also: 'rate-limited per address' },
  createWorkspace: { allow: EVERYONE, also: 'room creations rate-limited per address' },
  joinWorkspace: {
    allow: EVERYONE,
    also: 'password guesses rate-limited per room and per address; creates a new member with a new token',
  },
  linkPreview: { allow: MEMBERS, also: 'Authorization: Bearer {userToken}; rate-limited per user' },
  // An <img> sends no Authorization header: the HMAC signature over the image address (made only by our own
  // preview answers) is the authorization, so the route is no open proxy.
  linkPreviewImage: {
    allow: EVERYONE,
    also: 'signed URL only; SSRF-safe; images only; fetches rate-limited per address',
  },
  // The spec's body names userEmail: identity is the bearer token's member, never the body (docs/product/accounts.md A9).
  extendRoom: {
    allow: OWNER,
    also: 'Authorization: Bearer {userToken} of the room named by workspaceId; as extend-workspace',
  },
  // Files (docs/protocol.md, Files): the bearer token's member, in the room the path names.
  uploadFile: {
    allow: MEMBERS,
    also: 'Authorization: Bearer {userToken} of this room; a channel the uploader can read; size by tier; rate-limited per user',
  },
  fileLink: {
    allow: MEMBERS,
    also: "Authorization: Bearer {userToken}; the file's channel readable by the caller (a profile picture: any member)",
  },
  // An <img>/<video> sends no Authorization header: a signed link (made by fileLink for one member, minutes long)
  // stands for the token, and the member it names must still be able to read the channel when it is used.
  downloadFile: {
    allow: MEMBERS,
    also: "Authorization: Bearer {userToken} or a signed link of a member; the file's channel readable by that member",
  },
  // Accounts: identity is the session token (Authorization: Bearer), issued only after an e-mail code or a verified
  // Google ID token; e-mail addresses and Google ids in bodies identify nobody.
  requestCode: {
    allow: EVERYONE,
    also: 'rate-limited per address and per e-mail; answers the same whether or not an account exists',
  },
  register: {
    allow: EVERYONE,
    also: "needs a valid unused code mailed to the address; claiming a room needs that room's owner token",
  },
  login: {
    allow: EVERYONE,
    also: 'needs a valid unused code mailed to the address; wrong codes rate-limited per address',
  },
  googleStart: {
    allow: EVERYONE,
    also: 'OIDC authorization code flow with PKCE, state and nonce; off or failing: back to /login with the reason, never a JSON page',
  },
  googleStatus: { allow: EVERYONE, also: 'answers only whether Google sign-in is configured' },
  googleCallback: {
    allow: EVERYONE,
    also: 'the state of a flow this service started; the ID token verified (issuer, audience, nonce); links by e-mail only when email_verified',
  },
  googleAuth: {
    allow: EVERYONE,
    also: "the httpOnly hand-off cookie of a verified callback; the body's email/googleId are ignored",
  },
  recoverUsername: {
    allow: EVERYONE,
    also: 'mails the username to the address; answers the same whether or not it exists; rate-limited per address',
  },
  profile: { allow: ACCOUNTS },
  updateUsername: { allow: ACCOUNTS },
  autoRenewal: { allow: ACCOUNTS },
  exportData: { allow: ACCOUNTS, also: "the caller's own data only" },
  generateRoomToken: { allow: ROOM_OWNER_ACCOUNT, also: "a room the session's account claimed" },
  deleteAccount: {
    allow: ACCOUNTS,
    also: 'body { confirmation: "DELETE" }; the account\'s rooms are deleted (keys destroyed), then its key',
  },
  removeDashboardRoom: { allow: ACCOUNTS, also: "the caller's own dashboard list" },
  logout: { allow: ACCOUNTS, also: 'revokes the presented session' },
  logoutAll: { allow: ACCOUNTS, also: 'revokes every session of the account' },
  claimOwnership: {
    allow: ACCOUNTS,
    also: "body { userToken } of the room's guest owner; a room claimed by another account is refused",
  },
  deleteWorkspace: {
    allow: ROOM_OWNER_ACCOUNT,
    also: "the account that claimed the room (in the room, delete-workspace is the owner member's)",
  },
  // Payments: the account is the session's; e-mails in bodies and paths (userEmail, /subscription-status/{email})
  // name nobody. Tiers change only from provider data billing verified itself.
  createCheckoutSession: { allow: ACCOUNTS, also: 'return addresses of this site only' },
  createRoomExtensionPayment: {
    allow: ROOM_OWNER_ACCOUNT,
    also: "a live free room the session's account claimed; return addresses of this site only",
  },
  completeRoomExtension: {
    allow: ACCOUNTS,
    also: "the provider's record of the session says paid, and names this account; applied once per session",
  },
  subscriptionStatus: {
    allow: ACCOUNTS,
    also: "the session's own account (the path's e-mail is ignored); also without the segment",
  },
  createPortalSession: { allow: ACCOUNTS, also: "the session's account's provider customer only" },
  verifyPayment: {
    allow: ACCOUNTS,
    also: 'read back from the provider by session id; a session of another account is not verified',
  },
  paymentWebhook: {
    allow: EVERYONE,
    also: 'the provider only: Stripe-Signature (HMAC over the raw body with STRIPE_WEBHOOK_SECRET, 5-minute tolerance); each event id once',
  },
  // The spec's browser call that set a tier from a body: nobody may call it (tiers change only through verified
  // provider events); answered 403 before anything is read.
  subscriptionUpdate: { allow: [], also: 'refused to every caller' },
  // The spec's renew, upgrade-rooms and create-paid-account: the session's account only; tiers, e-mails and Google
  // ids in bodies are ignored (a tier comes only from the provider's record, or from the account's own row).
  upgradeRooms: {
    allow: ACCOUNTS,
    also: "the session's account's own rooms take its current tier (free once the subscription lapsed past grace)",
  },
  renewSubscription: {
    allow: ACCOUNTS,
    also: 'body { tier } only picks the plan of a new checkout; a subscription the provider still holds goes to the billing portal',
  },
  createPaidAccount: {
    allow: ACCOUNTS,
    also: 'no account is created here: the paymentId is a checkout session read back from the provider, paid and naming this account (as verifyPayment)',
  },
  // Anyone may write to us, signed in or not; nothing about the caller is read or recorded but the form's fields.
  contact: { allow: EVERYONE, also: 'rate-limited per address (stored messages only); every field validated (400)' },
  // The superadmin: a signed-in session (Bearer) of the SUPERADMIN_EMAIL account, checked on every call against
  // billing's session store; the spec's x-user-email header is never read. Every change is an audited admin event.
  adminConfig: { allow: SUPERADMIN },
  adminUpdateConfig: { allow: SUPERADMIN, also: 'autoDeleteDaysAfterGracePeriod 1..1000' },
  adminCleanupStatus: { allow: SUPERADMIN },
  adminCleanupRun: { allow: SUPERADMIN, also: 'audited' },
  adminDatabaseCleanup: { allow: SUPERADMIN, also: 'audited' },
  adminDashboard: { allow: SUPERADMIN },
  adminReport: { allow: SUPERADMIN },
  adminCustomRevenue: { allow: SUPERADMIN },
  adminResetRevenue: { allow: SUPERADMIN, also: 'audited' },
  adminUsers: { allow: SUPERADMIN, also: "the superadmin's own account is not listed" },
  adminDeleteUser: { allow: SUPERADMIN, also: "a reason is required; audited; not the superadmin's own account" },
  adminSuspendUser: {
    allow: SUPERADMIN,
    also: "a reason is required to suspend; audited; not the superadmin's own account",
  },
  adminSetSubscription: { allow: SUPERADMIN, also: 'audited' },
  adminUpgradeUser: { allow: SUPERADMIN, also: '30-day pro or business trial; audited' },
  adminRooms: { allow: SUPERADMIN },
  adminDeleteRoom: { allow: SUPERADMIN, also: 'a reason is required; audited' },
  adminExtendRoom: { allow: SUPERADMIN, also: '168 or 720 hours; audited' },
  adminRoomMessages: { allow: SUPERADMIN, also: 'every opening audited' },
  adminFeedback: { allow: SUPERADMIN },
  adminFeedbackStatus: { allow: SUPERADMIN, also: 'audited' },
  adminDeleteFeedback: { allow: SUPERADMIN, also: 'audited' },
  adminStorageUsage: { allow: SUPERADMIN },
  adminBackupList: { allow: SUPERADMIN },
  adminBackupGenerate: { allow: SUPERADMIN, also: 'audited' },
  adminBackupImport: {
    allow: SUPERADMIN,
    also: 'a .json backup of this service, checksum and encryption verified before anything changes; audited',
  },
  adminBackupDownload: { allow: SUPERADMIN, also: 'a backup the list names' },
  adminExport: { allow: SUPERADMIN, also: 'kind users (CSV) or analytics (JSON); audited' },
  adminMaintenance: { allow: SUPERADMIN, also: 'a message is required to enable; audited' },
  adminAudit: { allow: SUPERADMIN },
  // Every visitor's page views (fire-and-forget): nothing about the caller is kept but a daily-salted hash.
  pageview: {
    allow: EVERYONE,
    also: 'rate-limited per address; bots and a reload of the same path within a minute are not counted',
  },
  maintenanceStatus: { allow: EVERYONE, also: "the banner's state; never refused, also in maintenance" },
};
