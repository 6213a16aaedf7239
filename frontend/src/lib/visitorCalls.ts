/**
 * The two admin-analytics calls every visitor makes (no session needed), kept apart from lib/adminApi.ts so the
 * initial JavaScript carries only these: the page-view report on each route change, and the maintenance banner's
 * state.
 */
import type { MaintenanceState } from '@ephemera/proto';
import { ADMIN_API } from '@ephemera/proto/client';

/** docs/product/admin.md ADM14: the current path is reported on every route change; fire-and-forget (never throws, never awaited). */
export function reportPageView(path: string): void {
  try {
    void fetch(ADMIN_API.pageview, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      credentials: 'same-origin',
      keepalive: true,
      body: JSON.stringify({ path, userAgent: navigator.userAgent }),
    }).catch(() => undefined);
  } catch {
    /* no fetch (very old browser): nothing to report */
  }
}

/** The maintenance banner's state (GET, readable by every visitor); null when unknown (the call failed). */
export async function fetchMaintenance(): Promise<MaintenanceState | null> {
  try {
    const res = await fetch(ADMIN_API.maintenanceStatus, {
      headers: { Accept: 'application/json' },
      credentials: 'same-origin',
    });
    if (!res.ok) return null;
    const body = (await res.json()) as Partial<MaintenanceState>;
    return typeof body.enabled === 'boolean'
      ? { enabled: body.enabled, message: typeof body.message === 'string' ? body.message : null }
      : null;
  } catch {
    return null;
  }
}
