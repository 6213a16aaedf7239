import { describe, expect, it } from 'vitest';
import {
  canCreateRoom,
  nameAvailabilityFrom,
  shouldCheckName,
  shouldCheckUsername,
  usernameAvailabilityFrom,
  MSG_CHECK_TIMED_OUT,
  MSG_CHECK_UNAVAILABLE,
  MSG_USERNAME_CHECK_FAILED,
  MSG_USERNAME_NETWORK,
} from './availability.ts';

describe('room name availability', () => {
  it('checks only names of 2 or more characters', () => {
    expect(shouldCheckName('')).toBe(false);
    expect(shouldCheckName('a')).toBe(false);
    expect(shouldCheckName(' a ')).toBe(false);
    expect(shouldCheckName('ab')).toBe(true);
  });
  it('available / taken with the server message', () => {
    expect(
      nameAvailabilityFrom({ ok: true, status: 200, data: { available: true, message: 'Room name is available' } }),
    ).toEqual({ state: 'available', message: 'Room name is available' });
    expect(
      nameAvailabilityFrom({
        ok: true,
        status: 200,
        data: { available: false, message: 'Room name is already taken' },
      }),
    ).toEqual({ state: 'taken', message: 'Room name is already taken' });
  });
  it('timeout says Check timed out; network failure says Unable to check availability', () => {
    expect(nameAvailabilityFrom({ ok: false, kind: 'timeout' })).toEqual({
      state: 'unknown',
      message: MSG_CHECK_TIMED_OUT,
    });
    expect(nameAvailabilityFrom({ ok: false, kind: 'network' })).toEqual({
      state: 'unknown',
      message: MSG_CHECK_UNAVAILABLE,
    });
  });
  it('an HTTP error is unknown; a refused name shows the reason as taken', () => {
    const err = nameAvailabilityFrom({ ok: false, kind: 'http', status: 500, code: null, message: null });
    expect(err?.state).toBe('unknown');
    expect(err && 'message' in err && err.message).toContain('Unable to check availability');
    expect(
      nameAvailabilityFrom({
        ok: false,
        kind: 'http',
        status: 400,
        code: 'ROOM_NAME_INVALID',
        message: 'Use letters, numbers, hyphens and underscores only',
      }),
    ).toEqual({ state: 'taken', message: 'Use letters, numbers, hyphens and underscores only' });
  });
  it('an aborted (superseded) check changes nothing', () => {
    expect(nameAvailabilityFrom({ ok: false, kind: 'aborted' })).toBeNull();
  });
  it('submit is allowed only when available', () => {
    expect(canCreateRoom({ state: 'available', message: '' })).toBe(true);
    for (const s of [
      { state: 'idle' },
      { state: 'checking' },
      { state: 'taken', message: '' },
      { state: 'unknown', message: '' },
    ] as const) {
      expect(canCreateRoom(s)).toBe(false);
    }
  });
});

describe('username availability', () => {
  it('checks 2+ characters', () => {
    expect(shouldCheckUsername('a')).toBe(false);
    expect(shouldCheckUsername('ab')).toBe(true);
  });
  it('maps answers', () => {
    expect(usernameAvailabilityFrom({ ok: true, status: 200, data: { available: true, message: 'ok' } })).toEqual({
      state: 'available',
      message: 'ok',
    });
    expect(
      usernameAvailabilityFrom({
        ok: true,
        status: 200,
        data: { available: false, message: 'Username is already taken' },
      }),
    ).toEqual({ state: 'unavailable', message: 'Username is already taken' });
  });
  it('HTTP failure: Failed to check username; network error: unavailable with Network error checking username', () => {
    expect(usernameAvailabilityFrom({ ok: false, kind: 'http', status: 500, code: null, message: null })).toEqual({
      state: 'unavailable',
      message: MSG_USERNAME_CHECK_FAILED,
    });
    expect(usernameAvailabilityFrom({ ok: false, kind: 'network' })).toEqual({
      state: 'unavailable',
      message: MSG_USERNAME_NETWORK,
    });
    expect(usernameAvailabilityFrom({ ok: false, kind: 'aborted' })).toBeNull();
  });
});
