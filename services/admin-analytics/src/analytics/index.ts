/** The analytics figures: daily aggregates by day, plan and source (helper: analytics). */
import express from 'express';
import type { AnyEventEnvelope } from '@ephemera/proto';
import type { PoolClient } from '@ephemera/platform';
import type { AdminContext } from '../context.ts';

/** applies one event to this part's read models (inside applyOnce's transaction) */
export async function projectAnalytics(_client: PoolClient, _event: AnyEventEnvelope): Promise<void> {}

/** this part's /api/admin/ routes; mounted after the superadmin check */
export function analyticsRouter(_ctx: AdminContext): express.Router {
  return express.Router();
}

/** this part's routes every visitor may call (before the superadmin check) */
export function publicAnalyticsRouter(_ctx: AdminContext): express.Router {
  return express.Router();
}
