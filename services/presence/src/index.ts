export { PresenceService, CONNECTION_TTL_MS } from './presence-service.ts';
export { internalPresenceRouter, PresenceClient } from './http.ts';
export { startPresenceServer } from './server.ts';
