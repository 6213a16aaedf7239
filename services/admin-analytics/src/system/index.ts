/** The configuration, maintenance, audit trail, backups, cleanup, storage, feedback (helper: system). */
import express from 'express';
import type { AnyEventEnvelope } from '@ephemera/proto';
import type { PoolClient } from '@ephemera/platform';
import type { AdminContext } from '../context.ts';

/** applies one event to this part's read models (inside applyOnce's transaction) */
export async function projectSystem(_client: PoolClient, _event: AnyEventEnvelope): Promise<void> {}

/** this part's /api/admin/ routes; mounted after the superadmin check */
export function systemRouter(_ctx: AdminContext): express.Router {
  return express.Router();
}

/** this part's routes every visitor may call (before the superadmin check) */
export function publicSystemRouter(_ctx: AdminContext): express.Router {
  return express.Router();
}
