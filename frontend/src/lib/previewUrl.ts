/**
 * Which address of a draft gets a link preview (specs/rooms.md section 4: "the first address found in the draft"),
 * and which preview fields may be shown as links or images (http and https only; SECURITY.md 12).
 */
import { LINK_PREVIEW_LIMITS } from '@ephemera/proto/client';
import { safeHref, splitLinks } from './links.ts';

/** The first http(s) address in the text, as the message renders it (same detection as links), or null. */
export function firstPreviewUrl(text: string): string | null {
  for (const part of splitLinks(text)) {
    if (part.kind !== 'link') continue;
    if (!/^https?:$/.test(new URL(part.href).protocol)) continue;
    if (part.href.length > LINK_PREVIEW_LIMITS.urlMax) continue;
    return part.href;
  }
  return null;
}

/** An address usable as a link or image source: http or https only, else null. */
export function httpUrl(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const href = safeHref(raw);
  return href && /^https?:/i.test(href) ? href : null;
}
