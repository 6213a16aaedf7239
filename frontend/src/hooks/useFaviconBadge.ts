/**
 * The total unread count as a badge on the tab's icon (docs/product/messages.md M9): the app
 * icon drawn on a canvas with a red badge (99+ above 99), set as a data: URL on <link rel="icon">; the original
 * icon comes back at 0 and when the room page closes. (CSP: img-src allows data:.)
 */
import { useEffect, useState } from 'react';
import { formatBadge } from '../lib/format.ts';

const SIZE = 64;

/** Badge geometry for a text: wider pill for more characters. */
export function badgeBox(text: string): { width: number; height: number; fontSize: number } {
  const height = 36;
  const fontSize = text.length >= 3 ? 24 : 28;
  const width = text.length <= 1 ? height : Math.min(SIZE, 16 + text.length * 15);
  return { width, height, fontSize };
}

function iconLink(): HTMLLinkElement {
  let link = document.querySelector<HTMLLinkElement>('link[rel~="icon"]');
  if (!link) {
    link = document.createElement('link');
    link.rel = 'icon';
    document.head.appendChild(link);
  }
  return link;
}

let baseImage: Promise<HTMLImageElement | null> | null = null;
function loadBase(href: string): Promise<HTMLImageElement | null> {
  baseImage ??= new Promise((resolve) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => resolve(null);
    img.src = href;
  });
  return baseImage;
}

/**
 * Drawn icons by badge text: each is drawn once (the count changes with every arriving message in a busy room, and
 * drawing and encoding a PNG each time cost more of the page's time than the messages themselves). At most 100
 * texts ("1" to "99", "99+").
 */
const drawn = new Map<string, Promise<string | null>>();

/** The icon with a badge text (formatBadge) as a data: URL (null when canvas is unavailable), drawn once per text. */
function badgedIcon(baseHref: string, text: string): Promise<string | null> {
  let url = drawn.get(text);
  if (!url) {
    url = drawBadgedIcon(baseHref, text);
    drawn.set(text, url);
  }
  return url;
}

/** A data: URL of the icon with the badge, or null when canvas is unavailable. */
async function drawBadgedIcon(baseHref: string, text: string): Promise<string | null> {
  const canvas = document.createElement('canvas');
  canvas.width = SIZE;
  canvas.height = SIZE;
  const ctx = canvas.getContext('2d');
  if (!ctx) return null;
  const img = await loadBase(baseHref);
  if (img) ctx.drawImage(img, 0, 0, SIZE, SIZE);
  else {
    ctx.fillStyle = '#3b82f6';
    ctx.beginPath();
    ctx.roundRect(0, 0, SIZE, SIZE, 16);
    ctx.fill();
  }
  const { width, height, fontSize } = badgeBox(text);
  const x = SIZE - width;
  const y = 0;
  ctx.fillStyle = '#dc2626';
  ctx.beginPath();
  ctx.roundRect(x, y, width, height, height / 2);
  ctx.fill();
  ctx.lineWidth = 3;
  ctx.strokeStyle = '#ffffff';
  ctx.stroke();
  ctx.fillStyle = '#ffffff';
  ctx.font = `bold ${fontSize}px system-ui, sans-serif`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(text, x + width / 2, y + height / 2 + 1);
  return canvas.toDataURL('image/png');
}

/** Keep the tab icon's badge at `count` while mounted; the original icon comes back at 0 and on unmount. */
export function useFaviconBadge(count: number): void {
  const [original] = useState(() => {
    const link = iconLink();
    return { href: link.getAttribute('href') ?? '/favicon.svg', type: link.getAttribute('type') };
  });

  // per badge text, not per count: 100 and 101 both show 99+
  const text = count > 0 ? formatBadge(count) : '';
  useEffect(() => {
    const link = iconLink();
    const restore = () => {
      link.setAttribute('href', original.href);
      if (original.type) link.setAttribute('type', original.type);
      else link.removeAttribute('type');
      delete link.dataset.badge;
    };
    if (!text) {
      restore();
      return;
    }
    let cancelled = false;
    void badgedIcon(original.href, text)
      .then((url) => {
        if (cancelled || !url) return;
        link.setAttribute('type', 'image/png');
        link.setAttribute('href', url);
        link.dataset.badge = text;
      })
      .catch(() => {});
    return () => {
      cancelled = true;
    };
  }, [text, original]);

  useEffect(
    () => () => {
      const link = iconLink();
      link.setAttribute('href', original.href);
      if (original.type) link.setAttribute('type', original.type);
      else link.removeAttribute('type');
      delete link.dataset.badge;
    },
    [original],
  );
}
