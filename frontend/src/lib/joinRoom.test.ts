import { describe, expect, it } from 'vitest';
import { createErrorMessage, joinErrorMessage } from './joinRoom.ts';

describe('overlay error texts', () => {
  it('create: server message, else Failed to create workspace', () => {
    expect(
      createErrorMessage({ ok: false, kind: 'http', status: 400, code: 'VALIDATION', message: 'Invalid request' }),
    ).toBe('Invalid request');
    expect(createErrorMessage({ ok: false, kind: 'http', status: 500, code: null, message: null })).toBe(
      'Failed to create workspace',
    );
  });
  it('create with a taken name: server message or Room name is already taken', () => {
    expect(createErrorMessage({ ok: false, kind: 'http', status: 409, code: 'ROOM_NAME_TAKEN', message: null })).toBe(
      'Room name is already taken',
    );
    expect(
      createErrorMessage({ ok: false, kind: 'http', status: 409, code: 'ROOM_NAME_TAKEN', message: 'Taken!' }),
    ).toBe('Taken!');
  });
  it('join: server message, else Failed to join workspace', () => {
    expect(
      joinErrorMessage({ ok: false, kind: 'http', status: 401, code: 'PASSWORD_WRONG', message: 'Incorrect password' }),
    ).toBe('Incorrect password');
    expect(joinErrorMessage({ ok: false, kind: 'http', status: 500, code: null, message: null })).toBe(
      'Failed to join workspace',
    );
  });
  it('fetch failure: Network error', () => {
    expect(createErrorMessage({ ok: false, kind: 'network' })).toBe('Network error');
    expect(joinErrorMessage({ ok: false, kind: 'network' })).toBe('Network error');
  });
});
