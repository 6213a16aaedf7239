/**
 * The layer-4 entry of the local distributed stack (docs/deployment.md "Websockets through a layer-4 load
 * balancer"): nginx's stream module passes TCP connections to the gateway replicas without reading them, as a
 * Kubernetes Service of type LoadBalancer does in the chart's layer-4 path. The gateways answer Socket.IO themselves
 * and forward every other request to their HTTP_UPSTREAM (the HTTP ingress, deploy/local/ingress.ts), so one address
 * still serves the whole product.
 * Affinity: the chart's Service keys on the client's address. Here every client shares 127.0.0.1, so a connection
 * is the unit (hash of address and port): websocket clients spread over both gateways; a Socket.IO session that
 * starts with long-polling needs the client-address affinity of a real balancer.
 */
import fs from 'node:fs';
import path from 'node:path';
import { runNginx, type NginxProcess } from './nginx-process.ts';

/** Debian's libnginx-mod-stream (deploy/local/install.sh installs it) */
export const STREAM_MODULE = '/usr/lib/nginx/modules/ngx_stream_module.so';

export interface Layer4Options {
  runDir: string;
  port: number;
  gatewayPorts: number[];
}

export function layer4Config(opts: Layer4Options): string {
  return `load_module ${STREAM_MODULE};
${process.getuid?.() === 0 ? 'user root;' : ''}
worker_processes 1;
pid ${path.join(opts.runDir, 'nginx-l4.pid.nginx')};
error_log ${path.join(opts.runDir, 'nginx-l4-error.log')} warn;
events { worker_connections 65536; }
stream {
  upstream gateways {
    hash $remote_addr$remote_port consistent;
${opts.gatewayPorts.map((p) => `    server 127.0.0.1:${p};`).join('\n')}
  }
  server {
    listen 127.0.0.1:${opts.port} backlog=4096;
    proxy_pass gateways;
    # an idle socket lives on Socket.IO's pings (every 40 s); the chart's balancer idle timeout must exceed them too
    proxy_timeout 120s;
  }
}
`;
}

/** Starts nginx's stream proxy on `port`; resolves once it accepts connections. */
export async function startLayer4(opts: Layer4Options): Promise<NginxProcess> {
  if (!fs.existsSync(STREAM_MODULE)) throw new Error(`${STREAM_MODULE} missing: run deploy/local/install.sh`);
  fs.mkdirSync(opts.runDir, { recursive: true });
  const conf = path.join(opts.runDir, 'nginx-l4.conf');
  fs.writeFileSync(conf, layer4Config(opts));
  return runNginx({
    runDir: opts.runDir,
    conf,
    log: 'nginx-l4.log',
    errorLog: 'nginx-l4-error.log',
    port: opts.port,
    what: 'nginx (layer 4)',
  });
}
