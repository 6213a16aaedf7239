/**
 * Bad input never gives a 500 (docs/product/security.md S10) and /metrics is not public: malformed path
 * segments and percent-encoding, oversized bodies and mistyped JSON get a 4xx with a clear message and change
 * nothing, through the public address of each mode (in distributed mode both gateway replicas). Metrics are
 * served on their own port (METRICS_PORT) as Prometheus text.
 */
import { describe, it, expect } from 'vitest';
import { API } from '@ephemera/proto';
import { http, uniqueName } from '../helpers/clients.ts';

export interface HardeningTarget {
  A: string;
  B: string;
  metricsPorts: number[];
}

export function hardeningSuite(target: () => HardeningTarget) {
  describe('hardening: bad input and metrics', () => {
    const origins = () => [target().A, target().B];

    it('malformed path segments and bad percent-encoding answer 400 with a message, never 500', async () => {
      const paths = [
        '/api/workspaces/%E0%A4%A/info',
        '/api/workspaces/room/%',
        '/api/workspaces/check-name/%ZZ',
        '/api/workspaces/%/check-username/bob',
        '/api/workspaces/x/check-username/%E0%A4%A',
        '/api/workspaces/room/%C0%AF',
      ];
      for (const base of origins()) {
        for (const path of paths) {
          const res = await http(base, path, { headers: { 'x-forwarded-for': '198.19.0.1' } });
          expect(res.status, path).toBeGreaterThanOrEqual(400);
          expect(res.status, path).toBeLessThan(500);
          expect(typeof res.body?.message, path).toBe('string');
        }
        const res = await http(base, '/api/workspaces/%E0%A4%A/info');
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ success: false, code: 'VALIDATION', message: 'Malformed request' });
      }
    });

    it('a path segment that decodes to a control character answers 400 on every service, never 500', async () => {
      const paths = [
        '/api/workspaces/room/%00',
        '/api/workspaces/%00/info',
        '/api/workspaces/check-name/a%01b',
        '/api/workspaces/room/%C2%85',
        '/api/workspaces/x/check-username/bo%7Fb',
        '/api/workspaces/%0A/join',
        '/api/workspaces/ws/files/%00/link',
        '/api/payments/verify-session/%00',
        '/api/admin/rooms/%1F/extend',
        '/api/link-preview/%00',
      ];
      for (const base of origins()) {
        for (const path of paths) {
          const res = await http(base, path, { headers: { 'x-forwarded-for': '198.19.0.2' } });
          expect(res.status, path).toBe(400);
          expect(res.body, path).toMatchObject({
            success: false,
            code: 'VALIDATION',
            message: 'Malformed request: the path contains a control character',
          });
        }
      }
    });

    it('mistyped and oversized bodies answer 4xx with a clear message and create nothing', async () => {
      for (const base of origins()) {
        const name = uniqueName('bad');
        const broken = await http(base, API.create(), { body: '{"name": "x", ' });
        expect(broken.status).toBe(400);
        expect(broken.body).toMatchObject({ code: 'VALIDATION', message: 'Malformed JSON body' });
        const mistyped = await http(base, API.create(), { body: { name: 5, username: ['alice'], password: {} } });
        expect(mistyped.status).toBe(400);
        expect(mistyped.body.code).toBe('VALIDATION');
        const big = await http(base, API.create(), { body: { name, username: 'alice', pad: 'x'.repeat(200 * 1024) } });
        expect(big.status).toBe(413);
        const huge = await http(base, API.create(), {
          body: { name, username: 'alice', pad: 'x'.repeat(2 * 1024 * 1024) },
        });
        expect(huge.status).toBe(413);
        const joinBroken = await http(base, API.join('nope'), { body: '[1,' });
        expect(joinBroken.status).toBe(400);
        expect((await http(base, API.roomByName(name))).status).toBe(404); // nothing was created
        expect((await http(base, '/healthz')).status).toBe(200);
      }
    });

    it('GET /metrics is not served on the public port; the metrics port serves Prometheus text', async () => {
      for (const base of origins()) {
        const res = await http(base, '/metrics');
        expect(res.status).toBe(404);
        expect(String(res.body)).not.toContain('# HELP');
      }
      expect(target().metricsPorts.length).toBeGreaterThan(0);
      for (const port of target().metricsPorts) {
        const res = await fetch(`http://127.0.0.1:${port}/metrics`);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toContain('text/plain');
        const text = await res.text();
        expect(text).toContain('# HELP process_cpu_user_seconds_total');
        expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(404);
      }
    });
  });
}
