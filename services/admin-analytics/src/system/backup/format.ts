/**
 * The backup file (.json): a readable envelope around an encrypted export.
 *   { format, version, createdAt, checksum, ciphertext }
 * checksum: SHA-256 (hex) of the plaintext; ciphertext: base64 of iv (12 bytes) | AES-256-GCM ciphertext | tag
 * (16 bytes) under the install's backup key (backup-key.ts: derived from the master key), with the envelope's
 * format, version and createdAt as additional data, so none of them can be swapped either. Opening checks all of
 * it; any failure is BACKUP_INVALID ("Failed to import backup").
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { DomainError } from '@ephemera/proto';
import type { LogPosition } from './position.ts';

export const BACKUP_FORMAT = 'ephemera-admin-backup';
export const BACKUP_VERSION = 1;

/** A table as exported: its columns (in table order) and its rows as PostgreSQL's row_to_json gave them. */
export interface TableExport { columns: string[]; rows: Array<Record<string, unknown>> }
export interface SequenceExport { lastValue: string; isCalled: boolean }

export interface BackupContent {
  format: typeof BACKUP_FORMAT; version: typeof BACKUP_VERSION; createdAt: string; schema: 'admin';
  position: LogPosition;
  tables: Record<string, TableExport>;
  sequences: Record<string, SequenceExport>;
}

const EnvelopeSchema = z.object({
  format: z.literal(BACKUP_FORMAT), version: z.literal(BACKUP_VERSION), createdAt: z.iso.datetime(),
  checksum: z.string().regex(/^[0-9a-f]{64}$/), ciphertext: z.string().regex(/^[A-Za-z0-9+/]+={0,2}$/),
}).strict();

const Identifier = z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/);
const ContentSchema = z.object({
  format: z.literal(BACKUP_FORMAT), version: z.literal(BACKUP_VERSION), createdAt: z.iso.datetime(), schema: z.literal('admin'),
  position: z.looseObject({ kind: z.enum(['embedded', 'kafka', 'unknown']), logId: z.string().nullable() }),
  tables: z.record(Identifier, z.object({
    columns: z.array(Identifier).min(1),
    rows: z.array(z.record(z.string(), z.unknown())),
  }).strict()),
  sequences: z.record(Identifier, z.object({ lastValue: z.string().regex(/^-?\d{1,19}$/), isCalled: z.boolean() }).strict()),
}).strict();

const aad = (format: string, version: number, createdAt: string) => Buffer.from(`${format}\n${version}\n${createdAt}`);
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

export function invalidBackup(): DomainError { return new DomainError('BACKUP_INVALID'); }

/** the file's bytes */
export function sealBackup(content: BackupContent, key: Buffer): Buffer {
  const plaintext = Buffer.from(JSON.stringify(content));
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad(content.format, content.version, content.createdAt));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  const envelope = {
    format: content.format, version: content.version, createdAt: content.createdAt, checksum: sha256(plaintext),
    ciphertext: Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64'),
  };
  return Buffer.from(JSON.stringify(envelope, null, 1));
}

/** Parses, decrypts and checks a file's bytes; throws BACKUP_INVALID on anything wrong. */
export function openBackup(file: Buffer, key: Buffer): BackupContent {
  let envelope: z.infer<typeof EnvelopeSchema>;
  try {
    envelope = EnvelopeSchema.parse(JSON.parse(file.toString('utf8')));
  } catch {
    throw invalidBackup();
  }
  const packed = Buffer.from(envelope.ciphertext, 'base64');
  if (packed.length < 12 + 16) throw invalidBackup();
  let plaintext: Buffer;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, packed.subarray(0, 12));
    decipher.setAAD(aad(envelope.format, envelope.version, envelope.createdAt));
    decipher.setAuthTag(packed.subarray(packed.length - 16));
    plaintext = Buffer.concat([decipher.update(packed.subarray(12, packed.length - 16)), decipher.final()]);
  } catch {
    throw invalidBackup(); // another install's key, or a changed byte
  }
  if (!timingSafeEqual(Buffer.from(sha256(plaintext)), Buffer.from(envelope.checksum))) throw invalidBackup();
  let content: z.infer<typeof ContentSchema>;
  try {
    content = ContentSchema.parse(JSON.parse(plaintext.toString('utf8')));
  } catch {
    throw invalidBackup();
  }
  if (content.createdAt !== envelope.createdAt) throw invalidBackup();
  for (const table of Object.values(content.tables)) {
    for (const row of table.rows) {
      const keys = Object.keys(row);
      if (keys.length !== table.columns.length || !table.columns.every((c) => Object.hasOwn(row, c))) throw invalidBackup();
    }
  }
  return content as BackupContent;
}
