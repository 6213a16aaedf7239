/** Room administration over a fake socket: what each command sends, how answers and live events change the store. */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { C, ERRORS, S, settingsForTier } from '@ephemera/proto/client';
import type { WorkspaceUpdate } from '@ephemera/proto';
import { channel, me, other, workspace } from '../state/testData.ts';
import { NO_ACK, type Handler } from './testing/fakeSocket.ts';
import { startFakeSession } from './testing/fakeSession.ts';
import { themeAnnouncement } from '../hooks/useThemeAnnouncement.ts';
import { loadArea, setLocale } from '../i18n/i18n.ts';

// the theme announcement reads the roomside catalog (the room loads it)
beforeAll(async () => {
  await setLocale('en', { save: false });
  await loadArea('roomside');
});

const update = (extra: Partial<WorkspaceUpdate> = {}): WorkspaceUpdate => ({
  workspaceId: 'w1',
  name: 'team',
  isPasswordProtected: false,
  expiresAt: '2030-01-02T00:00:00.000Z',
  tier: 'free',
  settings: settingsForTier('free'),
  ...extra,
});

function setup(answer: (event: string, payload: any) => unknown = () => undefined) {
  const handler: Handler = (event, payload) => {
    if (event === C.joinWorkspace) return { success: true, user: me, workspace: workspace([channel('c1', 'general')]) };
    if (event === C.joinChannel) return { success: true, channelId: payload.channelId, messages: [], hasMore: false };
    if (event === C.fetchChannelSummaries) return { success: true, summaries: [] };
    return answer(event, payload) ?? { success: false, code: 'UNKNOWN_EVENT', message: 'Unknown event' };
  };
  return startFakeSession(handler);
}
const flush = () => vi.advanceTimersByTimeAsync(0);

describe('room administration commands', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('rename-workspace: trimmed; empty or unchanged sends nothing; the answer renames the room', async () => {
    const { socket, session } = setup((e, p) =>
      e === C.renameWorkspace ? { success: true, workspace: update({ name: p.newName }) } : undefined,
    );
    socket.up();
    await flush();
    expect(await session.admin.renameWorkspace('   ')).toEqual({ ok: true });
    expect(await session.admin.renameWorkspace(' team ')).toEqual({ ok: true });
    expect(socket.count(C.renameWorkspace)).toBe(0);
    expect((await session.admin.renameWorkspace('x'.repeat(51))).ok).toBe(false);
    expect(await session.admin.renameWorkspace('  new-team ')).toEqual({ ok: true });
    expect(socket.last(C.renameWorkspace)).toEqual({ workspaceId: 'w1', newName: 'new-team' });
    expect(session.state.workspace?.name).toBe('new-team');
  });

  it('set-workspace-password and max users: the spec texts with the server reason on failure', async () => {
    const { socket, session } = setup((e, p) => {
      if (e === C.setWorkspacePassword)
        return { success: true, workspace: update({ isPasswordProtected: p.password !== null }) };
      if (e === C.setWorkspaceMaxUsers)
        return {
          success: false,
          code: 'MAX_USERS_NOT_IN_TIER',
          message: 'Upgrade to Pro or Business to set the maximum number of users',
        };
      return undefined;
    });
    socket.up();
    await flush();
    expect(await session.admin.setPassword('pw')).toEqual({ ok: true });
    expect(session.state.workspace?.isPasswordProtected).toBe(true);
    expect(await session.admin.setPassword(null)).toEqual({ ok: true });
    expect(socket.last(C.setWorkspacePassword)).toEqual({ workspaceId: 'w1', password: null });
    expect(session.state.workspace?.isPasswordProtected).toBe(false);
    expect(await session.admin.setMaxUsers(10)).toEqual({
      ok: false,
      message: 'Failed to update max users: Upgrade to Pro or Business to set the maximum number of users',
    });
  });

  it('extend-workspace sends hours (7 days = 168, 30 days = 720); a failure is the spec text', async () => {
    let fail = false;
    const { socket, session } = setup((e) =>
      e === C.extendWorkspace
        ? fail
          ? { success: false, code: 'INTERNAL', message: 'boom' }
          : { success: true, workspace: update({ tier: 'pro', expiresAt: '2030-02-01T00:00:00.000Z' }) }
        : undefined,
    );
    socket.up();
    await flush();
    expect(await session.admin.extend(7)).toEqual({ ok: true });
    expect(socket.last(C.extendWorkspace)).toEqual({ workspaceId: 'w1', additionalHours: 168 });
    expect(session.state.workspace?.expiresAt).toBe('2030-02-01T00:00:00.000Z');
    fail = true;
    expect(await session.admin.extend(30)).toEqual({ ok: false, message: 'Failed to extend room. Please try again.' });
    expect(socket.last(C.extendWorkspace)).toEqual({ workspaceId: 'w1', additionalHours: 720 });
  });

  it("extend-workspace refused because the owner's subscription is in grace or expired shows the server's reason (docs/product/payments.md PAY12)", async () => {
    let code: 'SUBSCRIPTION_IN_GRACE' | 'SUBSCRIPTION_EXPIRED' = 'SUBSCRIPTION_IN_GRACE';
    const { socket, session } = setup((e) =>
      e === C.extendWorkspace ? { success: false, code, message: ERRORS[code] } : undefined,
    );
    socket.up();
    await flush();
    expect(await session.admin.extend(7)).toEqual({ ok: false, message: ERRORS.SUBSCRIPTION_IN_GRACE });
    code = 'SUBSCRIPTION_EXPIRED';
    expect(await session.admin.extend(7)).toEqual({
      ok: false,
      message: 'Your subscription has expired. Renew now to regain full access.',
    });
  });

  it('kick-user: never oneself; a refusal reads Failed to kick user: {reason}; success removes the member', async () => {
    const { socket, session } = setup((e, p) =>
      e === C.kickUser
        ? p.userId === 'nobody'
          ? { success: false, code: 'USER_NOT_FOUND', message: 'User not found' }
          : { success: true, userId: p.userId }
        : undefined,
    );
    socket.up();
    await flush();
    expect(await session.admin.kickUser(me.id)).toEqual({
      ok: false,
      message: 'Failed to kick user: You cannot kick yourself',
    });
    expect(await session.admin.kickUser('nobody')).toEqual({
      ok: false,
      message: 'Failed to kick user: User not found',
    });
    expect(await session.admin.kickUser(other.id)).toEqual({ ok: true });
    expect(session.state.workspace?.users.map((u) => u.id)).toEqual([me.id]);
  });

  it('a command that times out answers with the reason', async () => {
    const { socket, session } = setup((e) => (e === C.setWorkspacePassword ? NO_ACK : undefined));
    socket.up();
    await flush();
    const pending = session.admin.setPassword('pw');
    await vi.advanceTimersByTimeAsync(16_000);
    expect(await pending).toEqual({ ok: false, message: 'Failed to set/remove password: Request timed out' });
  });

  it("delete-workspace: success ends the session like workspace-deleted, with the deleting owner's success text (docs/product/rooms.md R27)", async () => {
    const { socket, session, callbacks } = setup((e) =>
      e === C.deleteWorkspace ? { success: true, workspaceId: 'w1' } : undefined,
    );
    socket.up();
    await flush();
    expect(await session.admin.deleteWorkspace()).toEqual({ ok: true });
    expect(callbacks.onWorkspaceDeleted).toHaveBeenCalledWith('Chat room deleted successfully!', true);
  });

  it('delete-workspace: workspace-deleted arriving before the answer still tells the deleting owner of their success', async () => {
    let fire: (() => void) | undefined;
    const { socket, session, callbacks } = setup((e) => {
      if (e !== C.deleteWorkspace) return undefined;
      fire?.();
      return { success: true, workspaceId: 'w1' };
    });
    fire = () => socket.fire(S.workspaceDeleted, { workspaceId: 'w1', message: 'This chat room has been deleted.' });
    socket.up();
    await flush();
    await session.admin.deleteWorkspace();
    expect(callbacks.onWorkspaceDeleted).toHaveBeenNthCalledWith(1, 'Chat room deleted successfully!', true);
  });

  it('broadcast-theme sends the custom record only with custom', async () => {
    const { socket, session } = setup((e, p) =>
      e === C.broadcastTheme
        ? {
            success: true,
            theme: { themeId: p.themeId, customTheme: p.customTheme ?? null, changedBy: me.id, changedByName: 'alice' },
          }
        : undefined,
    );
    socket.up();
    await flush();
    expect(await session.admin.broadcastTheme('dark')).toEqual({ ok: true });
    expect(socket.last(C.broadcastTheme)).toEqual({ workspaceId: 'w1', themeId: 'dark' });
    expect(session.state.workspace?.theme?.themeId).toBe('dark');
  });
});

describe('room administration events', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('workspace-updated changes name, lock, expiry, tier and limits live; another room is ignored', async () => {
    const { socket, session } = setup();
    socket.up();
    await flush();
    socket.fire(S.workspaceUpdated, update({ workspaceId: 'w2', name: 'other' }));
    expect(session.state.workspace?.name).toBe('team');
    socket.fire(
      S.workspaceUpdated,
      update({
        name: 'renamed',
        isPasswordProtected: true,
        tier: 'business',
        expiresAt: null,
        settings: settingsForTier('business'),
      }),
    );
    expect(session.state.workspace).toMatchObject({
      name: 'renamed',
      isPasswordProtected: true,
      tier: 'business',
      expiresAt: null,
    });
    expect(session.state.workspace?.settings.maxUsers).toBeNull();
  });

  it('user-updated changes a role (and our own); user-kicked removes the member; kicked ends our session', async () => {
    const { socket, session, callbacks } = setup();
    socket.up();
    await flush();
    socket.fire(S.userUpdated, { workspaceId: 'w1', user: { ...other, isAdmin: true } });
    expect(session.state.workspace?.users.find((u) => u.id === other.id)?.isAdmin).toBe(true);
    socket.fire(S.userUpdated, { workspaceId: 'w1', user: { ...me, isAdmin: false, isOwner: false } });
    expect(session.state.user).toMatchObject({ isAdmin: false, isOwner: false });
    socket.fire(S.userKicked, { workspaceId: 'w1', userId: other.id, kickedBy: me.id });
    expect(session.state.workspace?.users.some((u) => u.id === other.id)).toBe(false);
    socket.fire(S.kicked, { workspaceId: 'w1', reason: 'You were removed from the room by alice', kickedBy: me.id });
    expect(callbacks.onKicked).toHaveBeenCalledWith('You were removed from the room by alice');
  });

  it('theme-changed applies for everyone and is announced with who changed it (not to the changer, not on the first join)', async () => {
    const { socket, session } = setup();
    const before = session.state; // not joined yet: no workspace
    socket.up();
    await flush();
    expect(themeAnnouncement(before, session.state)).toBeNull();
    let prev = session.state;
    socket.fire(S.themeChanged, {
      workspaceId: 'w1',
      themeId: 'forest',
      customTheme: null,
      changedBy: other.id,
      changedByName: 'bob',
    });
    expect(session.state.workspace?.theme?.themeId).toBe('forest');
    expect(themeAnnouncement(prev, session.state)).toBe('bob changed the room theme to Forest');
    await setLocale('de', { save: false });
    expect(themeAnnouncement(prev, session.state)).toBe('bob hat das Design des Raums auf Wald geändert');
    await setLocale('en', { save: false });
    expect(themeAnnouncement(session.state, session.state)).toBeNull();
    prev = session.state;
    socket.fire(S.themeChanged, {
      workspaceId: 'w1',
      themeId: 'dark',
      customTheme: null,
      changedBy: me.id,
      changedByName: 'alice',
    });
    expect(session.state.workspace?.theme?.themeId).toBe('dark');
    expect(themeAnnouncement(prev, session.state)).toBeNull();
    socket.fire(S.themeChanged, {
      workspaceId: 'w1',
      themeId: 'no-such-theme',
      customTheme: null,
      changedBy: other.id,
      changedByName: 'bob',
    });
    expect(session.state.workspace?.theme?.themeId).toBe('dark');
    expect(session.state.notice).toBeNull();
  });
});
