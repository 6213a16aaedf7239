/** The the users and rooms directory and the actions on them (helper: directory). */
import express from 'express';
import type { AnyEventEnvelope } from '@ephemera/proto';
import type { PoolClient } from '@ephemera/platform';
import type { AdminContext } from '../context.ts';

/** applies one event to this part's read models (inside applyOnce's transaction) */
export async function projectDirectory(_client: PoolClient, _event: AnyEventEnvelope): Promise<void> {}

/** this part's /api/admin/ routes; mounted after the superadmin check */
export function directoryRouter(_ctx: AdminContext): express.Router {
  return express.Router();
}
