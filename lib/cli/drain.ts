/**
 * Shutting an HTTP server down without resetting a request (docs/deploy.md, "Restarts"): stop
 * listening, let every request in flight finish, and close each connection once it has nothing left
 * to answer. Node's own server.close() also closes every connection it deems idle, which includes a
 * new connection whose request bytes are in its socket but not yet read: that request would be reset.
 * Here a connection that has not yet sent a request keeps its chance to (it is answered with
 * `Connection: close`), a kept-alive one that is between requests is closed, and whatever is left
 * when the time is up is cut.
 */
import http from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';

interface Connection {
  served: number;
  active: Set<http.ServerResponse>;
}

export interface Drainer {
  /** Stops accepting, waits for the connections to finish (up to `ms`), then cuts the rest. */
  drain(ms: number): Promise<void>;
}

export function trackConnections(server: http.Server): Drainer {
  const connections = new Map<Duplex, Connection>();
  let draining = false;
  server.on('connection', (socket: net.Socket) => {
    connections.set(socket, { served: 0, active: new Set() });
    socket.once('close', () => connections.delete(socket));
  });
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const connection = connections.get(req.socket);
    if (!connection) return;
    connection.active.add(res);
    if (draining && !res.headersSent) res.setHeader('Connection', 'close');
    res.once('close', () => {
      connection.active.delete(res);
      connection.served += 1;
      if (draining) closeIfIdle(req.socket, connection);
    });
  });

  return {
    drain(ms) {
      draining = true;
      return new Promise((resolve) => {
        let cut: NodeJS.Timeout | undefined;
        const finish = () => {
          clearTimeout(cut);
          resolve();
        };
        // net.Server's close: stop listening only (http.Server's would also close "idle" connections).
        net.Server.prototype.close.call(server, finish);
        cut = setTimeout(() => { for (const socket of connections.keys()) socket.destroy(); }, ms);
        cut.unref();
        for (const [socket, connection] of connections) {
          for (const res of connection.active) if (!res.headersSent) res.setHeader('Connection', 'close');
          closeIfIdle(socket, connection);
        }
      });
    },
  };
}

/** A kept-alive connection between requests has nothing in flight: it goes now. */
function closeIfIdle(socket: Duplex, connection: Connection): void {
  if (connection.served > 0 && connection.active.size === 0) socket.end();
}
