/**
 * Where a page may send the browser after it is done (a `redirect` or `returnUrl` from the address, or one kept in
 * storage): a path of this site, and nothing else (docs/product/security.md S9). The target is parsed as the browser
 * will parse it
 * (`new URL(target, origin)`) and must keep this origin: `//evil.com`, `/\evil.com` and `/\t/evil.com` all resolve
 * to another host once the URL parser has read backslashes as slashes and dropped tabs and newlines, so they are
 * refused. A target holding any control character is refused outright; so is anything that is not a path.
 */
const CONTROL_OR_BACKSLASH = /[\p{Cc}\\]/u;
const DEFAULT_ORIGIN = 'http://localhost';

/** The same-origin path (path, query and fragment) `value` leads to, or null when it leads anywhere else. */
export function sameOriginPath(
  value: string | null | undefined,
  origin: string = globalThis.location?.origin ?? DEFAULT_ORIGIN,
): string | null {
  if (!value || !value.startsWith('/') || CONTROL_OR_BACKSLASH.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return null;
  }
  if (url.origin !== new URL(origin).origin) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}
