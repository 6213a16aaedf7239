/**
 * Maintenance mode's decisions (platform/maintenance.ts): which HTTP requests are writes it refuses, which socket
 * events are, and how a process's state follows the admin events (the newest sequence wins).
 */
import { describe, it, expect } from 'vitest';
import { C, CLIENT_EVENTS, DomainError, type AnyEventEnvelope } from '@ephemera/proto';
import { MaintenanceState, SOCKET_EVENT_WRITES, isMaintainedWrite } from '@ephemera/platform';

const changed = (sequence: number, enabled: boolean, message: string | null) =>
  ({
    type: 'admin.maintenance-changed',
    sequence,
    payload: { enabled, message, at: new Date().toISOString() },
  }) as unknown as AnyEventEnvelope;

describe('maintenance: what is a write', () => {
  it('refuses writes under /api/ and lets reads, sign-in, the webhook and the admin API through', () => {
    for (const [method, url] of [
      ['POST', '/api/workspaces'],
      ['DELETE', '/api/workspaces/w1'],
      ['PUT', '/api/auth/update-username'],
      ['POST', '/api/contact'],
      ['POST', '/API/Workspaces'],
      ['POST', '//api//workspaces/'],
      ['PATCH', '/api/x?y=1'],
      ['POST', '/api/%61dmin/config'],
      ['POST', '/api/workspaces/w1/files'],
      ['DELETE', '/api/auth/delete-account'],
    ] as const) {
      expect(isMaintainedWrite(method, url), `${method} ${url}`).toBe(true);
    }
    for (const [method, url] of [
      ['GET', '/api/workspaces/w1'],
      ['HEAD', '/api/x'],
      ['OPTIONS', '/api/workspaces'],
      ['POST', '/api/auth/request-code'],
      ['POST', '/api/auth/register'],
      ['POST', '/api/auth/login?x=1'],
      ['POST', '/api/auth/logout'],
      ['POST', '/api/payments/webhook'],
      ['POST', '/api/admin/maintenance'],
      ['PUT', '/api/admin/config'],
      ['POST', '/api/admin/analytics/pageview'],
      ['POST', '/socket.io/?EIO=4'],
      ['POST', '/not-api'],
      ['POST', '/api/link-preview/fetch'],
    ] as const) {
      expect(isMaintainedWrite(method, url), `${method} ${url}`).toBe(false);
    }
  });

  it('decides every socket event, and the state-changing ones are writes', () => {
    expect(Object.keys(SOCKET_EVENT_WRITES).sort()).toEqual(Object.keys(CLIENT_EVENTS).sort());
    for (const e of [
      C.sendMessage,
      C.editMessage,
      C.deleteMessage,
      C.addReaction,
      C.createChannel,
      C.deleteWorkspace,
      C.kickUser,
    ])
      expect(SOCKET_EVENT_WRITES[e], e).toBe(true);
    for (const e of [C.joinWorkspace, C.fetchMessages, C.syncMessages, C.typingStart, C.searchMessages])
      expect(SOCKET_EVENT_WRITES[e], e).toBe(false);
  });
});

describe('maintenance: the state', () => {
  it("follows the newest change and refuses with the superadmin's message while on", () => {
    const state = new MaintenanceState();
    expect(() => state.refuseWrites()).not.toThrow();
    state.apply(changed(5, true, 'Back at noon'));
    let refusal: unknown;
    try {
      state.refuseWrites();
    } catch (err) {
      refusal = err;
    }
    expect(refusal).toBeInstanceOf(DomainError);
    expect(refusal).toMatchObject({ code: 'MAINTENANCE', status: 503, message: 'Back at noon' });
    state.apply(changed(4, false, null)); // older: ignored
    expect(state.current()).toEqual({ enabled: true, message: 'Back at noon' });
    state.set({ enabled: false, message: null, sequence: 6 });
    expect(state.enabled).toBe(false);
    state.apply({ ...changed(9, true, 'x'), type: 'admin.config-changed' } as AnyEventEnvelope); // another admin event: ignored
    expect(state.enabled).toBe(false);
  });
});
