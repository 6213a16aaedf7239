/**
 * The superadmin's actions on accounts in billing (AdminAccounts) with the real room module and a clock the
 * test moves: an admin trial gives the account and its rooms the tier for 30 days, and billing's sweep takes both
 * back to free once the time is over (not before); an account that pays for its plan gets no trial, and a verified
 * subscription event ends a running trial (the provider's data decides from then on); a suspended account gets no
 * session by any sign-in and its tokens name nobody until it is unsuspended.
 */
import { describe, it, expect, afterAll } from 'vitest';
import type { SessionAccount } from '@ephemera/proto';
import { createLogger } from '@ephemera/platform';
import { startRoomWorld } from '../../../test/helpers/room-world.ts';
import { startBillingModule } from '../src/index.ts';

const logger = createLogger('test', 'silent');
const DAY_MS = 86_400_000;

describe('admin actions on accounts (billing)', async () => {
  let offset = 0;
  const now = () => new Date(Date.now() + offset);
  const world = await startRoomWorld({ now });
  const { databaseUrl, pool, log, keys, room } = world;
  const billing = await startBillingModule({
    databaseUrl,
    pool,
    log,
    logger,
    now,
    accountKeys: keys.store,
    rooms: room.service.ownership,
    superadminEmail: 'root@example.test',
    adminTrialSweepMs: 0,
  });
  world.stopFirst(() => billing.stop());
  afterAll(() => world.stop());
  const svc = billing.service;
  const admin = billing.adminAccounts;

  let n = 0;
  const signUp = async (prefix: string) => {
    const email = `${prefix}-${Date.now().toString(36)}-${n++}@example.test`;
    const answer = await svc.register({ email, username: prefix, code: await svc.codes.issue(email) }, null);
    return { email, token: answer.token, accountId: answer.user.id };
  };
  const dashboardRoom = async (account: { accountId: string; email: string }) => {
    const session: SessionAccount = {
      accountId: account.accountId,
      email: account.email,
      username: 'owner',
      tier: 'free',
      standing: 'active',
    };
    return room.service.ownership.createForAccount(session, {
      name: `trial-${Date.now().toString(36)}-${n++}`,
      username: 'owner',
    });
  };
  const roomTier = async (workspaceId: string) => (await room.service.repo.workspaceById(workspaceId))!.tier;
  const row = async (id: string) => (await svc.accounts.byId(id))!;

  it('a 30-day trial gives the account and its rooms the tier; the sweep ends it on time, not before, back to free', async () => {
    const u = await signUp('trial');
    const created = await dashboardRoom(u);
    const { until } = await admin.grantAdminTrial({ email: u.email, tier: 'business', days: 30 });
    expect(new Date(until).getTime() - now().getTime()).toBeGreaterThan(30 * DAY_MS - 60_000);
    expect(await row(u.accountId)).toMatchObject({ tier: 'business', upgradedByAdmin: true });
    expect(await roomTier(created.workspaceId)).toBe('business');
    expect((await svc.profile(await row(u.accountId))).user.subscriptionTier).toBe('business');

    offset += 29 * DAY_MS;
    expect(await admin.endLapsedTrials()).not.toContain(u.accountId);
    expect((await row(u.accountId)).tier).toBe('business');
    offset += 2 * DAY_MS;
    expect(await admin.endLapsedTrials()).toContain(u.accountId);
    expect(await row(u.accountId)).toMatchObject({ tier: 'free', upgradedByAdmin: false, trialEndsAt: null });
    expect(await roomTier(created.workspaceId)).toBe('free');
    expect(await admin.endLapsedTrials()).not.toContain(u.accountId); // ended once
  });

  it('an account that pays gets no trial; a verified subscription event ends a running trial', async () => {
    const payer = await signUp('payer');
    const activated = (accountId: string) =>
      svc.recordSystemFor(accountId, (current) => ({
        type: 'account.subscription-activated',
        payload: {
          accountId: current.id,
          tier: 'pro',
          subscriptionId: `sub_${current.id}`,
          customerId: null,
          currentPeriodEnd: new Date(now().getTime() + 30 * DAY_MS).toISOString(),
          cancelAtPeriodEnd: false,
          provider: 'stripe',
          providerEventId: null,
        },
      }));
    await activated(payer.accountId);
    await expect(admin.grantAdminTrial({ email: payer.email, tier: 'business', days: 30 })).rejects.toMatchObject({
      code: 'VALIDATION',
    });
    expect((await row(payer.accountId)).tier).toBe('pro');

    const trialist = await signUp('converts');
    await admin.grantAdminTrial({ email: trialist.email, tier: 'business', days: 30 });
    await activated(trialist.accountId);
    expect(await row(trialist.accountId)).toMatchObject({ tier: 'pro', upgradedByAdmin: false, trialEndsAt: null });
    offset += 31 * DAY_MS;
    expect(await admin.endLapsedTrials()).not.toContain(trialist.accountId);
    expect((await row(trialist.accountId)).tier).toBe('pro');
    await expect(admin.endAdminTrial({ email: trialist.email })).rejects.toMatchObject({ code: 'VALIDATION' });
  });

  it('a suspended account gets no session and its tokens name nobody; unsuspended it signs in again', async () => {
    const u = await signUp('suspend');
    await admin.suspendAccount({ email: u.email, suspended: true, reason: 'spam' });
    expect(await row(u.accountId)).toMatchObject({ suspended: true, suspendedReason: 'spam' });
    expect(await svc.resolveSession(u.token)).toBeNull();
    await expect(
      svc.register({ email: u.email, username: 'x', code: await svc.codes.issue(u.email) }, null),
    ).rejects.toMatchObject({ code: 'ACCOUNT_SUSPENDED' });
    await expect(svc.openSession(await row(u.accountId), null)).rejects.toMatchObject({ code: 'ACCOUNT_SUSPENDED' });
    await expect(admin.suspendAccount({ email: u.email, suspended: true, reason: null })).rejects.toMatchObject({
      code: 'VALIDATION',
    });
    await svc.register(
      { email: 'root@example.test', username: 'root', code: await svc.codes.issue('root@example.test') },
      null,
    );
    await expect(
      admin.suspendAccount({ email: 'root@example.test', suspended: true, reason: 'x' }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(admin.deleteAccountByAdmin({ email: 'root@example.test', reason: 'x' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });

    await admin.suspendAccount({ email: u.email, suspended: false, reason: null });
    expect(await row(u.accountId)).toMatchObject({ suspended: false, suspendedReason: null });
    expect(await svc.resolveSession(u.token)).toBeNull(); // revoked sessions stay revoked
    const back = await svc.register({ email: u.email, username: 'x', code: await svc.codes.issue(u.email) }, null);
    expect((await svc.resolveSession(back.token))?.accountId).toBe(u.accountId);
  });
});
