/**
 * A service's backup part over its internal listener (distributed mode; proto backup-ports.ts): the export is
 * streamed as NDJSON (never whole in memory), the import methods are internal-rpc routes. Both are signed with the
 * service credential like every internal call; the public entries never route /internal/.
 */
import express from 'express';
import {
  DomainError,
  BACKUP_PART_METHODS,
  backupPartExportPath,
  backupPartPrefix,
  type BackupPartApi,
  type BackupPartName,
} from '@ephemera/proto';
import { internalRpcClient, internalRpcRouter } from './internal-rpc.ts';
import { SERVICE_CREDENTIAL_HEADER, signServiceRequest, type ServiceCredential } from './service-credential.ts';

export function backupPartRouter(part: BackupPartName, impl: BackupPartApi): express.Router {
  const r = internalRpcRouter(backupPartPrefix(part), impl, BACKUP_PART_METHODS);
  r.post(backupPartExportPath(part), (req, res, next) => {
    const createdAt = String((req.body as { createdAt?: unknown } | undefined)?.createdAt ?? ''); // parsed by the listener
    if (Number.isNaN(Date.parse(createdAt))) {
      res.status(400).json({ success: false, code: 'VALIDATION' });
      return;
    }
    (async () => {
      res.type('application/x-ndjson');
      for await (const line of impl.exportPart({ createdAt })) {
        if (!res.write(`${line}\n`)) await new Promise((resolve) => res.once('drain', resolve));
      }
      res.end();
    })().catch((err) => {
      if (res.headersSent) res.destroy(err as Error);
      else next(err);
    });
  });
  return r;
}

export function backupPartClient(
  baseUrl: string,
  credential: ServiceCredential,
  part: BackupPartName,
  timeoutMs = 120_000,
): BackupPartApi {
  const rpc = internalRpcClient<BackupPartApi>(
    baseUrl,
    credential,
    backupPartPrefix(part),
    BACKUP_PART_METHODS,
    timeoutMs,
  );
  return {
    importBegin: (i) => rpc.importBegin(i),
    importRows: (i) => rpc.importRows(i),
    importKeys: (i) => rpc.importKeys(i),
    importEnded: (i) => rpc.importEnded(i),
    importCommit: (i) => rpc.importCommit(i),
    async *exportPart(input) {
      const path = backupPartExportPath(part);
      const body = JSON.stringify(input);
      const res = await fetch(baseUrl + path, {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/json',
          [SERVICE_CREDENTIAL_HEADER]: signServiceRequest(credential, 'POST', path, body),
        },
      });
      if (res.status !== 200 || !res.body)
        throw new DomainError('INTERNAL', `the ${part} service did not export its backup part (${res.status})`);
      const decoder = new TextDecoder();
      let rest = '';
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        rest += decoder.decode(chunk, { stream: true });
        let nl: number;
        while ((nl = rest.indexOf('\n')) >= 0) {
          yield rest.slice(0, nl);
          rest = rest.slice(nl + 1);
        }
      }
      if (rest) yield rest;
    },
  };
}
