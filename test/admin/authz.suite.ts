/**
 * Every /api/admin/ row of the authorization table, walked with real clients: the superadmin passes the check; an
 * anonymous caller, a signed-in ordinary account, a caller sending only the superadmin's e-mail in x-user-email,
 * and the superadmin's own revoked session are refused, and nothing they send changes anything.
 */
import { describe, it, expect } from 'vitest';
import { ADMIN_API, AUTH_API, ERRORS, HTTP_AUTHZ, HTTP_ROUTES, type HttpRouteId } from '@ephemera/proto';
import { http } from '../helpers/clients.ts';
import { bearer } from '../accounts/account-clients.ts';
import type { AdminTarget } from './target.ts';

const adminRoutes = () =>
  (Object.keys(HTTP_ROUTES) as HttpRouteId[]).filter(
    (id) => HTTP_ROUTES[id].path.startsWith('/api/admin/') && id !== 'pageview',
  );
const urlOf = (id: HttpRouteId) => HTTP_ROUTES[id].path.replace(/:[A-Za-z]+/g, 'x');

export function adminAuthzSuite(target: () => AdminTarget) {
  describe('the superadmin check', () => {
    it("every admin route is the superadmin's only", () => {
      const ids = adminRoutes();
      expect(ids.length).toBeGreaterThanOrEqual(29);
      for (const id of ids) expect(HTTP_AUTHZ[id].allow, id).toEqual(['superadmin']);
    });

    it('anonymous, x-user-email only, and an ordinary account are refused on every admin route', async () => {
      const t = target();
      for (const id of adminRoutes()) {
        const { method } = HTTP_ROUTES[id];
        const body =
          method === 'GET'
            ? undefined
            : {
                enabled: true,
                message: 'x',
                reason: 'x',
                hours: 168,
                tier: 'pro',
                days: 30,
                suspended: true,
                status: 'read',
              };
        const none = await http(t.url, urlOf(id), { method, body });
        expect(none.status, `${id} anonymous`).toBe(401);
        expect(none.body.code, `${id} anonymous`).toBe('NO_AUTH_TOKEN');
        const header = await http(t.url, urlOf(id), { method, body, headers: { 'x-user-email': t.superadminEmail } });
        expect(header.status, `${id} x-user-email`).toBe(401);
        const user = await http(t.url, urlOf(id), {
          method,
          body,
          headers: { ...bearer(t.user.token), 'x-user-email': t.superadminEmail },
        });
        expect(user.status, `${id} ordinary account`).toBe(403);
        expect(user.body).toMatchObject({ code: 'SUPERADMIN_REQUIRED', message: ERRORS.SUPERADMIN_REQUIRED });
      }
      // nothing they sent took effect: maintenance is still off
      const config = await http(t.url, ADMIN_API.config, { headers: bearer(t.adminToken) });
      expect(config.status).toBe(200);
      expect(config.body.maintenanceMode).toBe(false);
    });

    it('the superadmin passes the check on every admin route; a revoked superadmin session does not', async () => {
      const t = target();
      for (const id of adminRoutes()) {
        const { method } = HTTP_ROUTES[id];
        if (method !== 'GET') continue; // the writes are exercised with real bodies by each part's suite
        const res = await http(t.url, urlOf(id), { method, headers: bearer(t.adminToken) });
        expect([401, 403], `${id} superadmin: ${res.status} ${JSON.stringify(res.body)}`).not.toContain(res.status);
        expect(res.status, id).toBeLessThan(500);
      }
      const other = await t.signIn(t.superadminEmail, 'root');
      await http(t.url, AUTH_API.logout, { method: 'POST', headers: bearer(other.token) });
      const revoked = await http(t.url, ADMIN_API.config, { headers: bearer(other.token) });
      expect(revoked.status).toBe(401);
      expect(revoked.body.code).toBe('SESSION_INVALID');
    });
  });
}
