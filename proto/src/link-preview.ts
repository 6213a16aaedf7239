/**
 * Link previews (docs/product/messages.md M16; the route `POST /api/link-preview/fetch`).
 * The client sends the first address of a draft after 1 s of typing pause with the member's room token as
 * `Authorization: Bearer {userToken}`; the messaging service fetches the page (SSRF-safe, docs/link-previews.md)
 * and answers the preview object. Shared by the messaging service, the ingress routes and the frontend.
 */
import { z } from 'zod';

export { LINK_PREVIEW_PATH, LINK_PREVIEW_PREFIX, LINK_PREVIEW_IMAGE_PATH, LINK_PREVIEW_LIMITS } from './paths.ts';
import { LINK_PREVIEW_LIMITS } from './paths.ts';
import { SERVICE_TEXTS } from './service-texts.ts';

export const LinkPreviewTypeSchema = z.enum(['youtube', 'instagram', 'other']);
export type LinkPreviewType = z.infer<typeof LinkPreviewTypeSchema>;

/** The preview object (null for a field the page or the address does not give). */
export const LinkPreviewSchema = z.object({
  type: LinkPreviewTypeSchema,
  url: z.string(),
  title: z.string().nullable(),
  description: z.string().nullable(),
  image: z.string().nullable(),
  thumbnail: z.string().nullable(),
  author: z.string().nullable(),
  siteName: z.string().nullable(),
  postId: z.string().nullable(),
  videoId: z.string().nullable(),
});
export type LinkPreview = z.infer<typeof LinkPreviewSchema>;

/** Parses an address the way the server does (WHATWG URL); null when it is not an absolute address. */
export function parseLinkUrl(s: string): URL | null {
  try {
    return new URL(s);
  } catch {
    return null;
  }
}

const LinkUrlSchema = z
  .string({ error: (i) => (i.input === undefined ? SERVICE_TEXTS.linkRequired : 'The link must be text') })
  .trim()
  .min(1, SERVICE_TEXTS.linkRequired)
  .max(LINK_PREVIEW_LIMITS.urlMax, SERVICE_TEXTS.linkTooLong)
  .refine((s) => parseLinkUrl(s) !== null, SERVICE_TEXTS.linkInvalid)
  .refine((s) => ['http:', 'https:'].includes(parseLinkUrl(s)?.protocol ?? ''), SERVICE_TEXTS.linkNotHttp);

/** `POST /api/link-preview/fetch` body. `workspaceId` is accepted for the spec's client and ignored (the token decides). */
export const LinkPreviewRequestSchema = z.object(
  {
    url: LinkUrlSchema,
    workspaceId: z.string().max(200).optional(),
  },
  {
    error: (i) =>
      i.input === undefined
        ? 'Send a JSON body with the link: { "url": "https://..." }'
        : 'The body must be a JSON object with a url',
  },
);
export type LinkPreviewRequest = z.input<typeof LinkPreviewRequestSchema>;
