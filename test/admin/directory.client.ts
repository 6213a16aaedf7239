/** The superadmin's directory calls and the account and room lookups the directory tests share. */
import { expect } from 'vitest';
import { ADMIN_API, API, AUTH_API, type AdminUser, type ProfileAnswer } from '@ephemera/proto';
import { http, uniqueName } from '../helpers/clients.ts';
import { bearer } from '../accounts/account-clients.ts';
import type { AdminTarget } from './target.ts';

/** The admin's calls and the lookups the tests share. */
export function directoryClient(t: AdminTarget) {
  const admin = bearer(t.adminToken);
  const call = (path: string, method: string, body?: unknown) => http(t.url, path, { method, body, headers: admin });
  return {
    call,
    async users(search?: string): Promise<AdminUser[]> {
      const res = await call(
        `${ADMIN_API.users}${search === undefined ? '' : `?search=${encodeURIComponent(search)}`}`,
        'GET',
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.users;
    },
    async user(email: string): Promise<AdminUser | undefined> {
      return (await this.users(email)).find((u) => u.email === email);
    },
    /** the list shows the account once the projection has it (distributed: from Kafka a moment after sign-up) */
    async listed(email: string): Promise<AdminUser> {
      let found: AdminUser | undefined;
      await expect.poll(async () => (found = await this.user(email)), { timeout: 15_000, interval: 100 }).toBeDefined();
      return found!;
    },
    profile: (token: string) => http<ProfileAnswer>(t.url, AUTH_API.profile, { headers: bearer(token) }),
    /** a room made from the dashboard: the account's tier, claimed by it at once */
    async dashboardRoom(token: string) {
      const name = uniqueName('dir');
      const res = await http(t.url, API.create(), { body: { name, username: 'owner' }, headers: bearer(token) });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return { name, workspaceId: res.body.workspaceId as string };
    },
    lookup: (name: string, token?: string) =>
      http(t.url, API.roomByName(name), { headers: token ? bearer(token) : {} }),
  };
}
