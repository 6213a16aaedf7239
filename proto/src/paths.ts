/** HTTP paths: plain constants (no zod), shared by the services' routers, the ingress and the browser bundle. */

/** API paths, shared by the room service's router, the gateway proxy and the frontend. */
export const API = {
  checkName: (name: string) => `/api/workspaces/check-name/${encodeURIComponent(name)}`,
  roomByName: (roomName: string) => `/api/workspaces/room/${encodeURIComponent(roomName)}`,
  info: (id: string) => `/api/workspaces/${encodeURIComponent(id)}/info`,
  checkUsername: (id: string, username: string) => `/api/workspaces/${encodeURIComponent(id)}/check-username/${encodeURIComponent(username)}`,
  create: () => `/api/workspaces`,
  join: (id: string) => `/api/workspaces/${encodeURIComponent(id)}/join`,
  extendRoom: () => `/api/workspaces/extend-room`,
} as const;

/** The API path (nginx routes the `/api/link-preview/` prefix to the messaging service). */
export const LINK_PREVIEW_PATH = '/api/link-preview/fetch';
export const LINK_PREVIEW_PREFIX = '/api/link-preview/';
/**
 * Preview images through our origin (SECURITY.md 15): `GET {path}?u={image address}&s={signature}`. The messaging
 * service writes these paths into the previews it answers; the signature is the authorization (an <img> sends no
 * token), so only images of our own previews are fetched. The browser loads preview images from this path only.
 */
export const LINK_PREVIEW_IMAGE_PATH = '/api/link-preview/image';

export const LINK_PREVIEW_LIMITS = {
  /** longest address accepted */
  urlMax: 2048,
} as const;
