/**
 * The service boundary from outside (docs/security.md "Service boundary"): internal routes (a room's data key,
 * change-tier) asked for through every public entry of a mode, spelled every way an HTTP stack might resolve to
 * /internal/ (dot segments, `%2e`, `..`, `%2f`, doubled slashes, mixed case), are refused and change nothing. The
 * requests are written on a raw socket: an HTTP client would resolve the dots itself and never send them.
 */
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { API, INTERNAL } from '@ephemera/proto';
import { createRoom, http } from '../helpers/clients.ts';

export interface BoundaryEntry {
  name: string;
  url: string;
  /** what this entry answers a refused internal path: 404 (ours), or also 400 (an nginx that rejects the path first) */
  refusals?: number[];
}
export interface BoundaryTarget {
  /** where a browser comes in (rooms are created through it) */
  url: string;
  /** every public entry: the address above, and in distributed mode each gateway, nginx and each service's public port */
  entries: BoundaryEntry[];
}

/** One request as written, on a socket of its own; its status and body. */
export function rawRequest(
  base: string,
  method: string,
  target: string,
  body?: string,
): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.setTimeout(10_000, () => socket.destroy(new Error(`${method} ${target}: no answer`)));
    socket.on('connect', () => {
      const head = [`${method} ${target} HTTP/1.1`, `Host: ${hostname}:${port}`, 'Connection: close'];
      if (body !== undefined) head.push('Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`);
      // written, not ended: nginx takes a half-closed client for one that went away, and answers nothing
      socket.write(`${head.join('\r\n')}\r\n\r\n${body ?? ''}`);
    });
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ status, body: text.slice(text.indexOf('\r\n\r\n') + 4) });
    });
  });
}

/** Every spelling of `path` (an internal route) that some HTTP stack resolves to it. */
export function internalSpellings(path: string): string[] {
  const rest = path.replace(/^\/internal\//, '');
  return [
    path,
    `/.${path}`,
    `/%2e${path}`,
    `/%2E${path}`,
    `/api/..${path}`,
    `/api/%2e%2e${path}`,
    `/api/%2E%2E${path}`,
    `/api/.%2e${path}`,
    `/${path}`,
    `///${path}`,
    `/%2f${path.slice(1)}`,
    `/api%2f..%2f${path.slice(1)}`,
    `/api/x/..%2f..${path}`,
    `/%5c${path.slice(1)}`,
    `/INTERNAL/${rest}`,
    `/Internal/${rest.toUpperCase()}`,
    `/%69nternal/${rest}`,
    `/api/%252e%252e${path}`,
    `${path}?x=1`,
    `/./api/../internal/./${rest}`,
  ];
}

export function serviceBoundarySuite(target: () => BoundaryTarget) {
  describe('service boundary: no public entry reaches an internal route', () => {
    it("a room's data key is refused through every entry, however the path is spelt", async () => {
      const room = await createRoom(target().url);
      const refused: string[] = [];
      for (const entry of target().entries) {
        for (const path of internalSpellings(`/internal/room-keys/${room.workspaceId}`)) {
          const res = await rawRequest(entry.url, 'GET', path);
          expect(res.body, `${entry.name} ${path}`).not.toMatch(/"key"/);
          expect(entry.refusals ?? [404], `${entry.name} GET ${path} answered ${res.status}`).toContain(res.status);
          refused.push(`${entry.name} ${path}`);
        }
      }
      expect(refused.length).toBeGreaterThanOrEqual(target().entries.length * 20);
    });

    it('change-tier is refused through every entry, however the path is spelt, and the tier stays', async () => {
      const room = await createRoom(target().url);
      const body = JSON.stringify({ workspaceId: room.workspaceId, tier: 'business', reason: 'outside' });
      for (const entry of target().entries) {
        for (const path of internalSpellings(INTERNAL.changeTier)) {
          const res = await rawRequest(entry.url, 'POST', path, body);
          expect(entry.refusals ?? [404], `${entry.name} POST ${path} answered ${res.status}`).toContain(res.status);
        }
      }
      expect((await http(target().url, API.info(room.workspaceId))).body.settings.tier).toBe('free');
    });
  });
}
