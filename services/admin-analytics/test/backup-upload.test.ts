/** The backup import's multipart reading (system/backup/routes.ts): one .json file in `backup`, capped in size. */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { errorHandler, createLogger, route } from '@ephemera/platform';
import { readBackupUpload } from '../src/system/backup/routes.ts';

let server: Server;
let url: string;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'backup-upload-'));
const spools: string[] = [];
const outcomes: Array<Promise<string>> = [];
let n = 0;
beforeAll(async () => {
  const app = express();
  app.post(
    '/up',
    route(async (req, res) => {
      const spool = path.join(dir, `spool-${++n}.json`);
      spools.push(spool);
      const read = readBackupUpload(req, 1000, spool);
      outcomes.push(
        read.then(
          () => 'read',
          (err: Error) => err.message,
        ),
      );
      const { filename, size } = await read;
      res.json({ filename, size, text: fs.readFileSync(spool, 'utf8') });
    }),
  );
  app.use(errorHandler(createLogger('test', 'silent')));
  server = await new Promise((r) => {
    const s = app.listen(0, '127.0.0.1', () => r(s));
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/up`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  fs.rmSync(dir, { recursive: true, force: true });
});

const form = (parts: Array<[string, string, string?]>) => {
  const f = new FormData();
  for (const [field, content, name] of parts) {
    if (name === undefined) f.append(field, content);
    else f.append(field, new Blob([content]), name);
  }
  return f;
};
const post = async (body: FormData | string, headers: Record<string, string> = {}) => {
  const res = await fetch(url, { method: 'POST', body, headers });
  return { status: res.status, body: await res.json() };
};

describe('backup upload', () => {
  it('spools the one .json file of the field "backup" to disk', async () => {
    expect(
      await post(
        form([
          ['note', 'x'],
          ['backup', '{"a":1}', 'Backup.JSON'],
        ]),
      ),
    ).toEqual({ status: 200, body: { filename: 'Backup.JSON', size: 7, text: '{"a":1}' } });
    const big = 'y'.repeat(1000); // exactly the cap
    expect((await post(form([['backup', big, 'b.json']]))).body).toMatchObject({ size: 1000, text: big });
  });

  it('refuses other names, other fields, no file, plain bodies and files over the cap', async () => {
    const cases: Array<[FormData | string, number, Record<string, string>?]> = [
      [form([['backup', '{}', 'backup.txt']]), 400],
      [form([['file', '{}', 'backup.json']]), 400],
      [form([['backup', 'text only']]), 400],
      ['{"backup":1}', 400, { 'content-type': 'application/json' }],
      ['--x\r\n', 400, { 'content-type': 'multipart/form-data' }],
      [form([['backup', 'x'.repeat(1001), 'big.json']]), 413],
    ];
    for (const [body, status, headers] of cases) {
      const res = await post(body, headers);
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(res.body.code).toBe('BACKUP_INVALID');
    }
  });

  it('settles with a refusal when the client goes away in the middle of the file', async () => {
    const before = outcomes.length;
    const boundary = 'cut-off-boundary';
    const req = http.request(url, {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': '100000' },
    });
    req.on('error', () => {}); // we cut it ourselves
    req.write(
      `--${boundary}\r\ncontent-disposition: form-data; name="backup"; filename="b.json"\r\ncontent-type: application/json\r\n\r\n{"partial":`,
    );
    await expect.poll(() => outcomes.length, { timeout: 5000 }).toBe(before + 1);
    await new Promise((r) => setTimeout(r, 50)); // the file is being written
    req.destroy();
    expect(
      await Promise.race([outcomes[before]!, new Promise((r) => setTimeout(() => r('still waiting'), 5000))]),
    ).toMatch(/cut off|aborted|Failed to import backup/);
  });
});
