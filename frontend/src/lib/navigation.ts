/** Client-side navigation for the tiny router in App.tsx. */
export const NAVIGATE_EVENT = 'ephemera:navigate';

export function navigate(to: string, { replace = false }: { replace?: boolean } = {}): void {
  if (replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  window.dispatchEvent(new Event(NAVIGATE_EVENT));
  window.scrollTo(0, 0);
}

/** Remove query parameters from the address bar without navigating. */
export function stripQueryParams(names: string[]): void {
  const url = new URL(window.location.href);
  let changed = false;
  for (const n of names) {
    if (url.searchParams.has(n)) { url.searchParams.delete(n); changed = true; }
  }
  if (changed) window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
}
