export { startGateway, type Gateway, type GatewayOptions } from './gateway.ts';
