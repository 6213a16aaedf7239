/** HTTP paths: plain constants (no zod), shared by the services' routers, the ingress and the browser bundle. */

/** API paths, shared by the room service's router, the gateway proxy and the frontend. */
export const API = {
  checkName: (name: string) => `/api/workspaces/check-name/${encodeURIComponent(name)}`,
  roomByName: (roomName: string) => `/api/workspaces/room/${encodeURIComponent(roomName)}`,
  info: (id: string) => `/api/workspaces/${encodeURIComponent(id)}/info`,
  checkUsername: (id: string, username: string) => `/api/workspaces/${encodeURIComponent(id)}/check-username/${encodeURIComponent(username)}`,
  create: () => `/api/workspaces`,
  join: (id: string) => `/api/workspaces/${encodeURIComponent(id)}/join`,
} as const;

/** The API path (nginx routes the `/api/link-preview/` prefix to the messaging service). */
export const LINK_PREVIEW_PATH = '/api/link-preview/fetch';
export const LINK_PREVIEW_PREFIX = '/api/link-preview/';

export const LINK_PREVIEW_LIMITS = {
  /** longest address accepted */
  urlMax: 2048,
} as const;
