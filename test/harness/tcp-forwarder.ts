/**
 * A TCP forwarder on 127.0.0.1 to a real server, which a test can cut (every connection dropped,
 * new ones refused at once) and restore, as a cache server going down and coming back looks to a client.
 */
import net, { AddressInfo } from 'node:net';

export interface TcpForwarder {
  port: number;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startTcpForwarder(targetPort: number): Promise<TcpForwarder> {
  const sockets = new Set<net.Socket>();
  let open = true;
  const track = (socket: net.Socket) => { sockets.add(socket); socket.on('close', () => sockets.delete(socket)); };
  const server = net.createServer((client) => {
    track(client);
    if (!open) return client.destroy();
    const upstream = net.connect(targetPort, '127.0.0.1');
    track(upstream);
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const dropAll = () => { for (const s of sockets) s.destroy(); };
  return {
    port: (server.address() as AddressInfo).port,
    cut() { open = false; dropAll(); },
    restore() { open = true; },
    close: () => new Promise<void>((resolve) => { dropAll(); server.close(() => resolve()); }),
  };
}
