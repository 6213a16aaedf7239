export { startGateway, type Gateway, type GatewayOptions } from './gateway.ts';
export { startGatewayServer } from './server.ts';
