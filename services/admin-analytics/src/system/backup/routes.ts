/**
 * Backup management routes (System tab): generate, list, download, import. The import is a multipart form with
 * one file in the field `backup` (.json only), read by busboy with a size cap and spooled to the backup directory;
 * every refusal about the file is 400 BACKUP_INVALID ("Failed to import backup") and changes nothing.
 */
import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import express from 'express';
import { DomainError } from '@ephemera/proto';
import { adminOf } from '../../superadmin.ts';
import type { Backups } from './backups.ts';
import { publicRoute, type Callers } from '@ephemera/platform';
import type { SessionAccount } from '@ephemera/proto';

/**
 * maxBytes (ADMIN_BACKUP_MAX_BYTES): the largest backup an import accepts. The upload is spooled to disk and restored
 * as a stream, so this bounds disk, not memory. The chart's ingress takes its body limit from the same value.
 */
export function backupRoutes(
  r: express.Router,
  backups: Backups,
  callers: Callers<SessionAccount>,
  maxBytes: number,
): void {
  publicRoute(r, 'adminBackupGenerate', callers, async (_req, res) => {
    res.json({ success: true, backup: await backups.generate(adminOf(res)) });
  });

  publicRoute(r, 'adminBackupList', callers, async (_req, res) => {
    res.json(await backups.store.list());
  });

  publicRoute(r, 'adminBackupDownload', callers, async (req, res) => {
    const filename = String(req.params.filename);
    const file = await backups.store.pathOf(filename);
    res.attachment(filename); // Content-Disposition: attachment; the name is ours (generated), never a user's
    res.type('application/json').set('Cache-Control', 'no-store').set('X-Content-Type-Options', 'nosniff');
    await pipeline(fs.createReadStream(file), res);
  });

  publicRoute(r, 'adminBackupImport', callers, async (req, res) => {
    const spool = await backups.store.tempFile('import');
    try {
      const upload = await readBackupUpload(req, maxBytes, spool);
      res.json(await backups.import(adminOf(res), spool, upload.filename));
    } finally {
      await fs.promises.rm(spool, { force: true });
    }
  });
}

/**
 * Writes the form's `backup` file to `spool` as it arrives (never whole in memory), up to `maxBytes`. The request
 * is read to its end before any answer, so a refusal never races the upload. On a refusal the caller removes the
 * spool file.
 */
export function readBackupUpload(
  req: express.Request,
  maxBytes: number,
  spool: string,
): Promise<{ filename: string; size: number }> {
  return new Promise((resolve, reject) => {
    if (!req.is('multipart/form-data')) {
      req.resume();
      reject(new DomainError('BACKUP_INVALID'));
      return;
    }
    let bb: busboy.Busboy;
    try {
      // busboy reports the limit on reaching fileSize: one byte more lets a file of exactly maxBytes through
      bb = busboy({
        headers: req.headers,
        limits: { files: 1, fileSize: maxBytes + 1, fields: 4, fieldSize: 1024, parts: 6, fieldNameSize: 32 },
      });
    } catch {
      req.resume();
      reject(new DomainError('BACKUP_INVALID')); // a multipart type without a boundary
      return;
    }
    let found: { filename: string; written: Promise<number> } | null = null;
    let problem: DomainError | null = null;
    let fileStream: (NodeJS.ReadableStream & { destroy(err?: Error): void }) | null = null;
    bb.on('file', (field, stream, info) => {
      const filename = info.filename ?? '';
      if (field !== 'backup' || found || !/\.json$/i.test(filename)) {
        if (field === 'backup')
          problem ??= new DomainError('BACKUP_INVALID', 'Failed to import backup: choose a .json backup file');
        stream.resume();
        return;
      }
      let size = 0;
      fileStream = stream;
      stream.on('data', (c: Buffer) => {
        size += c.length;
      });
      stream.on('limit', () => {
        problem = new DomainError('BACKUP_INVALID', 'Failed to import backup: the file is too large', 413);
      });
      found = {
        filename,
        written: pipeline(stream, fs.createWriteStream(spool, { mode: 0o600, flags: 'wx' })).then(() => size),
      };
      found.written.catch(() => {}); // awaited in finish()
    });
    // A broken form or an upload cut off (the client went away): the file being written is ended with the error, so
    // the answer (if anyone is left to read it) is a refusal and the caller removes the spool file.
    const fail = (why: DomainError) => {
      problem ??= why;
      fileStream?.destroy(problem);
      finish();
    };
    bb.on('error', () => fail(new DomainError('BACKUP_INVALID')));
    req.on('close', () => {
      if (!req.complete) fail(new DomainError('BACKUP_INVALID', 'Failed to import backup: the upload was cut off'));
    });
    bb.on('close', () => finish());
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      const file = found as { filename: string; written: Promise<number> } | null;
      if (!file) {
        reject(problem ?? new DomainError('BACKUP_INVALID', 'Failed to import backup: no file in the field "backup"'));
        return;
      }
      file.written.then(
        (size) => (problem ? reject(problem) : resolve({ filename: file.filename, size })),
        (err) => reject(problem ?? err),
      );
    };
    req.pipe(bb);
  });
}
