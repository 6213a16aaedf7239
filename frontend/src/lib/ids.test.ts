import { describe, expect, it } from 'vitest';
import { newClientMessageId } from './ids.ts';

describe('newClientMessageId', () => {
  it('is 32 hex characters and unique', () => {
    const ids = new Set(Array.from({ length: 200 }, () => newClientMessageId()));
    expect(ids.size).toBe(200);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
  });
});
