/**
 * Address handling for link previews: the one normalization (cache key, answer's url) and recognition of
 * YouTube videos and Instagram posts from the address alone.
 */
import { DomainError, LINK_PREVIEW_LIMITS, SERVICE_TEXTS, type LinkPreviewType } from '@ephemera/proto';

/**
 * The WHATWG URL parser already canonicalizes what matters for safety and for the cache key: the scheme and host
 * lower-cased, IDN hosts in punycode, every numeric IPv4 spelling (2130706433, 0x7f000001, 0177.0.0.1, 127.1)
 * as dotted decimal, IPv6 compressed, the scheme's default port dropped. We also drop the fragment (never sent)
 * and any user name or password (never sent either).
 */
export function normalizeUrl(input: string): URL {
  const s = input.trim();
  if (!s) throw new DomainError('VALIDATION', SERVICE_TEXTS.linkRequired);
  if (s.length > LINK_PREVIEW_LIMITS.urlMax) throw new DomainError('VALIDATION', SERVICE_TEXTS.linkTooLong);
  let url: URL;
  try {
    url = new URL(s);
  } catch {
    throw new DomainError('VALIDATION', SERVICE_TEXTS.linkInvalid);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new DomainError('VALIDATION', SERVICE_TEXTS.linkNotHttp);
  url.hash = '';
  url.username = '';
  url.password = '';
  return url;
}

export interface Recognized {
  type: LinkPreviewType;
  videoId: string | null;
  postId: string | null;
}

const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;
const INSTAGRAM_ID = /^[A-Za-z0-9_-]{5,64}$/;
const YOUTUBE_HOSTS = new Set([
  'youtube.com',
  'www.youtube.com',
  'm.youtube.com',
  'music.youtube.com',
  'youtube-nocookie.com',
  'www.youtube-nocookie.com',
]);
const INSTAGRAM_HOSTS = new Set(['instagram.com', 'www.instagram.com', 'm.instagram.com']);

/** YouTube: watch?v=, youtu.be/ID, /shorts/ID, /embed/ID, /live/ID, /v/ID. Instagram: /p/ID, /reel/ID, /reels/ID, /tv/ID. */
export function recognize(url: URL): Recognized {
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  const parts = url.pathname.split('/').filter(Boolean);
  if (host === 'youtu.be') {
    const id = parts[0];
    if (id && YOUTUBE_ID.test(id)) return { type: 'youtube', videoId: id, postId: null };
  }
  if (YOUTUBE_HOSTS.has(host)) {
    const v = url.searchParams.get('v');
    if (parts[0] === 'watch' && v && YOUTUBE_ID.test(v)) return { type: 'youtube', videoId: v, postId: null };
    if (['shorts', 'embed', 'live', 'v'].includes(parts[0] ?? '') && parts[1] && YOUTUBE_ID.test(parts[1])) {
      return { type: 'youtube', videoId: parts[1], postId: null };
    }
  }
  if (INSTAGRAM_HOSTS.has(host)) {
    // /p/ID/ or /{username}/p/ID/ (the form Instagram links to from a profile)
    const i = parts.findIndex((p) => ['p', 'reel', 'reels', 'tv'].includes(p));
    const id = i >= 0 && i <= 1 ? parts[i + 1] : undefined;
    if (id && INSTAGRAM_ID.test(id)) return { type: 'instagram', videoId: null, postId: id };
  }
  return { type: 'other', videoId: null, postId: null };
}

/** The thumbnail YouTube serves for every video (no fetch needed). */
export const youtubeThumbnail = (videoId: string) => `https://i.ytimg.com/vi/${videoId}/hqdefault.jpg`;
