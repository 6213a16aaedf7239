/**
 * The room service's package entry (@ephemera/room): what services/embedded, the tests and other services use. It only
 * re-exports: the module (module.ts) and the process (server.ts) import their parts directly, never this file, so
 * nothing here imports back into what re-exports it.
 */
export { RoomService } from './room-service.ts';
export { publicRoomRouter, internalRoomRouter } from './http.ts';
export { roomClient } from './client.ts';
export { accountRoomRouter, internalAccountRoomRouter } from './ownership-http.ts';
export { AdminRooms } from './superadmin-rooms.ts';
export { ROOM_MIGRATIONS, type RoomModule, startRoomModule } from './module.ts';
export { startRoomServer } from './server.ts';
