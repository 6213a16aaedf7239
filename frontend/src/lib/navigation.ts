/**
 * Address-bar helpers beside react-router (navigation itself: react-router's Link / useNavigate).
 *
 * stripQueryParams removes one-shot flags (create, token, openExtend, ...) with history.replaceState and keeps the
 * router's history state, without a router navigation: the room page reads its flags once, when it opens, and a
 * navigation would make it resolve the room again with the flags gone.
 */
export function stripQueryParams(names: string[]): void {
  const url = new URL(window.location.href);
  let changed = false;
  for (const n of names) {
    if (url.searchParams.has(n)) {
      url.searchParams.delete(n);
      changed = true;
    }
  }
  if (changed) window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
}
