export * from './limits.ts';
export * from './errors.ts';
export * from './models.ts';
export * from './events.ts';
export * from './socket.ts';
export * from './http.ts';
export * from './internal.ts';
