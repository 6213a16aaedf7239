import { describe, expect, it } from 'vitest';
import {
  adminControls,
  checkRoomPassword,
  MSG_MAX_USERS,
  MSG_PASSWORD_REQUIRED,
  parseMaxUsers,
  renameTarget,
} from './roomRules.ts';

describe('max users input (docs/product/rooms.md R25)', () => {
  it('takes an integer of at least 2 on pro and business', () => {
    expect(parseMaxUsers(' 12 ', 'pro')).toEqual({ ok: true, maxUsers: 12 });
    expect(parseMaxUsers('2', 'business')).toEqual({ ok: true, maxUsers: 2 });
  });
  it('takes "unlimited" (any case) on business only', () => {
    expect(parseMaxUsers('UNLIMITED', 'business')).toEqual({ ok: true, maxUsers: 'unlimited' });
    expect(parseMaxUsers('unlimited', 'pro')).toEqual({ ok: false, message: MSG_MAX_USERS });
  });
  it('refuses anything else with the spec text', () => {
    for (const bad of ['1', '0', '-3', '2.5', 'ten', '', '1e3', '100001']) {
      expect(parseMaxUsers(bad, 'business')).toEqual({
        ok: false,
        message: 'Please enter a number 2 or higher, or "unlimited"',
      });
    }
  });
});

describe('room password and rename', () => {
  it('password: trimmed, required, 6 to 50 characters', () => {
    expect(checkRoomPassword('  s3cret ')).toEqual({ ok: true, password: 's3cret' });
    expect(checkRoomPassword('  12345  ')).toEqual({ ok: false, message: 'Password must be at least 6 characters' });
    expect(checkRoomPassword('   ')).toEqual({ ok: false, message: MSG_PASSWORD_REQUIRED });
    expect(checkRoomPassword('x'.repeat(51)).ok).toBe(false);
  });
  it('rename: trimmed; empty or unchanged cancels; at most 50', () => {
    expect(renameTarget('  new-name ', 'old')).toEqual({ name: 'new-name' });
    expect(renameTarget('   ', 'old')).toEqual({ name: null });
    expect(renameTarget(' old ', 'old')).toEqual({ name: null });
    expect(renameTarget('x'.repeat(51), 'old')).toMatchObject({ name: null, error: expect.any(String) });
  });
});

describe('who sees which control (docs/product/rooms.md R21)', () => {
  const owner = { isOwner: true, isAdmin: true };
  const admin = { isOwner: false, isAdmin: true };
  const member = { isOwner: false, isAdmin: false };
  const expires = '2030-01-01T00:00:00.000Z';
  it('owner: everything the tier allows', () => {
    expect(adminControls(owner, 'free', expires)).toMatchObject({
      rename: true,
      kick: true,
      password: true,
      maxUsers: false,
      extend: true,
      upgrade: true,
      deleteRoom: true,
      setRole: true,
    });
    expect(adminControls(owner, 'pro', expires)).toMatchObject({ maxUsers: true, extend: true, upgrade: true });
    expect(adminControls(owner, 'business', null)).toMatchObject({ maxUsers: true, extend: false, upgrade: false });
  });
  it('admin: rename, kick, password, max users, theme; not delete, extend or roles', () => {
    expect(adminControls(admin, 'pro', expires)).toMatchObject({
      rename: true,
      kick: true,
      password: true,
      maxUsers: true,
      broadcastTheme: true,
      deleteRoom: false,
      extend: false,
      setRole: false,
    });
  });
  it('member: nothing', () => {
    const c = adminControls(member, 'business', null);
    expect(Object.values(c).every((v) => v === false)).toBe(true);
    expect(Object.values(adminControls(null, 'free', expires)).every((v) => v === false)).toBe(true);
  });
});
