/**
 * The maintenance banner (docs/product/admin.md ADM10): a red banner for every visitor on every page
 * while maintenance mode is on. Its state comes from GET /api/maintenance (every 30 s, and when the tab comes back
 * to the front), and from any same-origin call that answers 503 MAINTENANCE (its message is shown at once).
 * The default text shows in the active language; a message the superadmin wrote shows as written.
 * The page below keeps its full height: the banner's height is taken from #root (--maintenance-banner-h).
 */
import { useEffect, useRef, useState } from 'react';
import { ADMIN_TEXT } from '@ephemera/proto/client';
import { fetchMaintenance } from '../../lib/visitorCalls.ts';
import { useT } from '../../i18n/i18n.ts';
import { AlertIcon } from '../Icons.tsx';
import './overlays.css';

export const MAINTENANCE_POLL_MS = 30_000;

type Listener = (message: string) => void;
const listeners = new Set<Listener>();
const checkers = new Set<() => void>();
/** Ask the banner to check the state now (the admin just toggled maintenance mode). */
export function recheckMaintenance(): void {
  for (const c of checkers) c();
}
let fetchWatched = false;

/**
 * Every call of the app goes through window.fetch (lib/api.ts, lib/account.ts, lib/payments.ts, lib/adminApi.ts...):
 * one wrapper here sees each 503 MAINTENANCE answer without each of them knowing about the banner. The answer is
 * read from a clone, after the caller already has the response, so nothing waits on it.
 */
function watchFetch(): void {
  if (fetchWatched || typeof window === 'undefined' || typeof window.fetch !== 'function') return;
  fetchWatched = true;
  const original = window.fetch.bind(window);
  window.fetch = async (...args: Parameters<typeof fetch>) => {
    const response = await original(...args);
    if (response.status === 503) {
      void response
        .clone()
        .json()
        .then((body: { code?: unknown; message?: unknown }) => {
          if (body?.code !== 'MAINTENANCE') return;
          const message =
            typeof body.message === 'string' && body.message ? body.message : ADMIN_TEXT.maintenanceDefault;
          for (const l of listeners) l(message);
        })
        .catch(() => undefined);
    }
    return response;
  };
}

/** The banner's text: the default in the active language, a message the superadmin wrote as written. */
export function maintenanceText(message: string, t: ReturnType<typeof useT>): string {
  return message === ADMIN_TEXT.maintenanceDefault ? t('common.maintenance.default') : message;
}

export function MaintenanceBanner() {
  const t = useT();
  const [message, setMessage] = useState<string | null>(null);
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    watchFetch();
    let live = true;
    const check = () => {
      void fetchMaintenance().then((state) => {
        if (!live || !state) return; // unknown: keep what we know
        setMessage(state.enabled ? state.message || ADMIN_TEXT.maintenanceDefault : null);
      });
    };
    const onVisible = () => {
      if (document.visibilityState === 'visible') check();
    };
    const onRefused: Listener = (m) => setMessage(m);
    listeners.add(onRefused);
    checkers.add(check);
    check();
    const timer = setInterval(check, MAINTENANCE_POLL_MS);
    window.addEventListener('focus', check);
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      live = false;
      listeners.delete(onRefused);
      checkers.delete(check);
      clearInterval(timer);
      window.removeEventListener('focus', check);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, []);

  // the page keeps its own height below the banner (#root's padding, styles in overlays.css)
  useEffect(() => {
    const root = document.documentElement;
    const el = ref.current;
    if (!message || !el) {
      root.style.removeProperty('--maintenance-banner-h');
      return;
    }
    const apply = () => root.style.setProperty('--maintenance-banner-h', `${el.offsetHeight}px`);
    apply();
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(apply) : null;
    observer?.observe(el);
    return () => {
      observer?.disconnect();
      root.style.removeProperty('--maintenance-banner-h');
    };
  }, [message]);

  if (!message) return null;
  return (
    <div ref={ref} className="maintenance-banner" role="alert" data-testid="maintenance-banner">
      <AlertIcon size={16} />
      <span>{maintenanceText(message, t)}</span>
    </div>
  );
}
