/**
 * What a Kubernetes Service / the ingress does for the gateway replicas, at the TCP level: each new client
 * connection goes to the next replica in turn, and a replica that refuses the connection is skipped. Clients use
 * the websocket transport (no polling session to keep on one replica), so connection-level balancing is enough.
 * A killed replica's clients reconnect through it and land on a replica that is alive.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';

export interface Balancer {
  url: string;
  stop(): Promise<void>;
}

export async function startBalancer(backends: () => number[]): Promise<Balancer> {
  let turn = 0;
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    open.add(client);
    client.once('close', () => open.delete(client));
    client.pause();
    const ports = backends();
    const tryBackend = (attempt: number) => {
      if (attempt >= ports.length) {
        client.destroy();
        return;
      }
      const port = ports[(turn + attempt) % ports.length]!;
      const upstream = net.connect(port, '127.0.0.1');
      let connected = false;
      upstream.once('connect', () => {
        connected = true;
        turn = (turn + attempt + 1) % ports.length;
        open.add(upstream);
        upstream.once('close', () => {
          open.delete(upstream);
          client.destroy();
        });
        client.once('close', () => upstream.destroy());
        upstream.on('error', () => client.destroy());
        client.on('error', () => upstream.destroy());
        client.pipe(upstream).pipe(client);
        client.resume();
      });
      upstream.once('error', () => {
        if (!connected) tryBackend(attempt + 1);
      }); // refused: the next replica
    };
    tryBackend(0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async stop() {
      for (const s of open) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}
