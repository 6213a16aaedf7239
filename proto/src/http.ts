/** HTTP bodies and answers of the room area (docs/protocol.md). */
import { z } from 'zod';
import {
  RoomNameSchema,
  UsernameSchema,
  RoomPasswordSchema,
  TierSchema,
  type RoomUser,
  type WorkspaceSettings,
} from './models.ts';

export const CreateWorkspaceBodySchema = z.object({
  name: RoomNameSchema,
  username: UsernameSchema,
  password: RoomPasswordSchema.nullish(),
  hasPassword: z.boolean().optional(),
});
export type CreateWorkspaceBody = z.input<typeof CreateWorkspaceBodySchema>;
export interface CreateWorkspaceAnswer {
  workspaceId: string;
  workspace: { id: string; name: string };
  userToken: string;
  user: RoomUser;
}

export const JoinWorkspaceBodySchema = z.object({
  username: UsernameSchema,
  password: RoomPasswordSchema.nullish(),
});
export type JoinWorkspaceBody = z.input<typeof JoinWorkspaceBodySchema>;
export interface JoinWorkspaceAnswer {
  workspaceId: string;
  userToken: string;
  user: RoomUser;
}

export interface CheckNameAnswer {
  available: boolean;
  message: string;
}
export interface CheckUsernameAnswer {
  available: boolean;
  message: string;
}

export interface RoomLookupAnswer {
  workspaceId: string;
  name: string;
  isPasswordProtected: boolean;
  isNewRoom: false;
  tier: z.infer<typeof TierSchema>;
  expiresAt: string | null;
}
export interface WorkspaceInfoAnswer {
  workspaceId: string;
  name: string;
  isPasswordProtected: boolean;
  isNewRoom: boolean;
  expiresAt: string | null;
  createdAt: string;
  settings: WorkspaceSettings;
}

/** POST /api/workspaces/extend-room (bearer): the spec's body; userEmail is accepted and ignored (identity = token). */
export const ExtendRoomBodySchema = z.object({
  workspaceId: z.string().min(1).max(64),
  userEmail: z.string().max(320).optional(),
  /** 7 or 30 */
  extensionDays: z.union([z.literal(7), z.literal(30)]),
});
export interface ExtendRoomAnswer {
  success: true;
  workspaceId: string;
  expiresAt: string | null;
  message: string;
}

export {
  API,
  FILE_ROUTE_PATTERN,
  UPLOAD_ROUTE_PATTERN,
  UPLOAD_FIELDS,
  UPLOAD_PURPOSES,
  PROFILE_IMAGE_MAX_BYTES,
  VOICE_MAX_MS,
  CAPTION_MAX,
  type UploadPurpose,
} from './paths.ts';

/** POST /api/workspaces/{id}/files answers the stored file (then sent with send-message { fileId }). */
export interface UploadAnswer {
  success: true;
  file: import('./models.ts').MessageFile & { expiresAt: string | null };
}
/** GET /api/workspaces/{id}/files/{fileId}/link: signed addresses an <img>/<video> can use, valid until expiresAt. */
export interface FileLinkAnswer {
  success: true;
  url: string;
  thumbnailUrl: string | null;
  expiresAt: string;
}
