/**
 * Which address of a draft gets a link preview (docs/product/messages.md M16: the first address in the draft),
 * and which preview fields may be shown as links (http and https only; docs/product/security.md S12) or images (our
 * own image
 * proxy's path only; docs/product/security.md S15).
 */
import { LINK_PREVIEW_IMAGE_PATH, LINK_PREVIEW_LIMITS } from '@ephemera/proto/client';
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

/**
 * A preview image source: only the same-origin path of our image proxy (`/api/link-preview/image?u=...&s=...`, which
 * the server writes into every preview it makes), else null. A third-party address (an older stored preview, or
 * anything else) is never loaded: the page's CSP would refuse it, and the browser must not contact it.
 */
export function proxiedImageSrc(raw: string | null | undefined): string | null {
  if (!raw || !raw.startsWith(`${LINK_PREVIEW_IMAGE_PATH}?`)) return null;
  const base = 'https://same-origin.invalid';
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    return null;
  }
  if (url.origin !== base || url.pathname !== LINK_PREVIEW_IMAGE_PATH) return null;
  return `${url.pathname}${url.search}`;
}
