/**
 * The admin-analytics service's package entry (@ephemera/admin-analytics): what services/embedded, the tests and other
 * services use. It only re-exports: the module (module.ts) and the process (server.ts) import their parts directly,
 * never this file, so nothing here imports back into what re-exports it.
 */
export { adminRouter } from './http.ts';
export { backupKeyFrom } from './backup-key.ts';
/** the maintenance state as the admin read model holds it: the embedded process starts its MaintenanceState from it */
export { maintenanceSnapshot } from './system/index.ts';
export type { AdminContext } from './context.ts';
export { ADMIN_MIGRATIONS, type AdminOptions, type AdminModule, startAdminModule } from './module.ts';
export { startAdminServer } from './server.ts';
