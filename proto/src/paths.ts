/** HTTP paths: plain constants (no zod), shared by the services' routers, the ingress and the browser bundle. */

import { RESERVED_ROOM_NAMES } from './limits.ts';

/** API paths, shared by the room service's router, the gateway proxy and the frontend. */
export const API = {
  checkName: (name: string) => `/api/workspaces/check-name/${encodeURIComponent(name)}`,
  roomByName: (roomName: string) => `/api/workspaces/room/${encodeURIComponent(roomName)}`,
  info: (id: string) => `/api/workspaces/${encodeURIComponent(id)}/info`,
  checkUsername: (id: string, username: string) =>
    `/api/workspaces/${encodeURIComponent(id)}/check-username/${encodeURIComponent(username)}`,
  create: () => `/api/workspaces`,
  join: (id: string) => `/api/workspaces/${encodeURIComponent(id)}/join`,
  extendRoom: () => `/api/workspaces/extend-room`,
  uploadFile: (workspaceId: string) => `/api/workspaces/${encodeURIComponent(workspaceId)}/files`,
  file: (workspaceId: string, fileId: string) =>
    `/api/workspaces/${encodeURIComponent(workspaceId)}/files/${encodeURIComponent(fileId)}`,
  fileLink: (workspaceId: string, fileId: string) =>
    `/api/workspaces/${encodeURIComponent(workspaceId)}/files/${encodeURIComponent(fileId)}/link`,
} as const;

/** Upload routes: matched by the ingress (nginx regex) and the test router, which send them to messaging. */
export const FILE_ROUTE_PATTERN = /^\/api\/workspaces\/[A-Za-z0-9_-]+\/files(\/|\?|$)/;
/** The upload itself (POST here; API.uploadFile), the one file route whose body the embedded gateway hands over in-process. */
export const UPLOAD_ROUTE_PATTERN = /^\/api\/workspaces\/[A-Za-z0-9_-]+\/files(\?|$)/;
/** The upload's form fields (multipart/form-data): the fields must come before the file part. */
export const UPLOAD_FIELDS = {
  file: 'file',
  channelId: 'channelId',
  caption: 'caption',
  purpose: 'purpose',
  durationMs: 'durationMs',
} as const;
/** message: a file for a message in channelId; avatar: a profile picture (images only, 5 MB) */
export const UPLOAD_PURPOSES = ['message', 'voice', 'avatar'] as const;
export type UploadPurpose = (typeof UPLOAD_PURPOSES)[number];
/** Profile pictures: 5 MB (docs/product/files.md F9). Voice messages: 5 minutes at most, the recorder stops (F8). */
export const PROFILE_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const VOICE_MAX_MS = 5 * 60 * 1000;
export const CAPTION_MAX = 200;

/** The API path (nginx routes the `/api/link-preview/` prefix to the messaging service). */
export const LINK_PREVIEW_PATH = '/api/link-preview/fetch';
export const LINK_PREVIEW_PREFIX = '/api/link-preview/';
/**
 * Preview images through our origin (docs/product/security.md S15): `GET {path}?u={image address}&s={signature}`. The
 * messaging
 * service writes these paths into the previews it answers; the signature is the authorization (an <img> sends no
 * token), so only images of our own previews are fetched. The browser loads preview images from this path only.
 */
export const LINK_PREVIEW_IMAGE_PATH = '/api/link-preview/image';

export const LINK_PREVIEW_LIMITS = {
  /** longest address accepted */
  urlMax: 2048,
} as const;

/**
 * The public pages search engines may index (and link previews describe): the landing page and the static pages.
 * Every other path the frontend serves (room pages above all, docs/product/rooms.md R2) answers `X-Robots-Tag:
 * noindex` (services/platform/src/web.ts; the nginx configurations list the same paths).
 */
export const INDEXED_PAGES = ['/', '/about', '/features', '/privacy', '/terms', '/contact'] as const;

/**
 * The paths the room page answers (the client's route table: /{roomName}, /join/room/{name}, /join/{id},
 * /workspace/{id}; a first segment the app itself uses is never a room). The servers answer these with the HTML that
 * preloads the room page's code (frontend/route-preload.ts): embedded's web edge, and nginx with the same pattern.
 */
export const ROOM_PAGE_PATH = new RegExp(
  `^/(?:(?!(?:${RESERVED_ROOM_NAMES.map((n) => n.replace('.', '\\.')).join('|')})(?:/|$))[^/]+|join/room/[^/]+|join/[^/]+|workspace/[^/]+)$`,
  'i',
);
