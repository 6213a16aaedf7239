import { describe, it, expect } from 'vitest';
import { originAllowed } from '../src/origin.ts';

describe('handshake origin: forwarded headers (docs/product/security.md S4, S6)', () => {
  it('ignores X-Forwarded-Host unless the request comes from a trusted proxy', () => {
    const spoofed = { origin: 'https://evil.example', host: 'chat.example', 'x-forwarded-host': 'evil.example' };
    expect(originAllowed(spoofed, [])).toBe(false);
    expect(originAllowed(spoofed, [], { fromTrustedProxy: false })).toBe(false);
    // Behind the ingress (trusted), the host the browser asked for is the forwarded one.
    const proxied = { origin: 'https://chat.example', host: 'gateway-1:8101', 'x-forwarded-host': 'chat.example' };
    expect(originAllowed(proxied, [], { fromTrustedProxy: true })).toBe(true);
    expect(originAllowed(proxied, [], { fromTrustedProxy: false })).toBe(false);
    expect(
      originAllowed({ ...proxied, 'x-forwarded-host': 'chat.example, inner.proxy' }, [], { fromTrustedProxy: true }),
    ).toBe(true);
  });
});
