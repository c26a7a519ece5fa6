/**
 * DB_HOST handling: splitting it the way wpdb::parse_db_host does, and choosing where to connect (a Unix
 * socket, possibly mysqli's default one for `localhost`, or TCP host and port).
 */
import * as fs from 'node:fs';
import { DbHostParts } from './types';

/** Where PHP's mysqli finds "localhost", in the order we try them (Debian/Ubuntu, older layouts, mysqlnd default). */
export const DEFAULT_MYSQL_SOCKETS = ['/run/mysqld/mysqld.sock', '/var/run/mysqld/mysqld.sock', '/tmp/mysql.sock'] as const;

/**
 * Splits DB_HOST the way wpdb::parse_db_host does:
 * - a socket is whatever follows the first `:/` (`localhost:/run/mysqld/mysqld.sock`);
 * - the rest is `host[:port]`; with more than one `:` it is IPv6, optionally `[addr]:port` (brackets dropped);
 * - the port is the leading digits after `:` (anything after them is ignored; port 0 means no port).
 * `defaultSocket` is set when mysqli would use its default socket (host `localhost` or empty, no socket).
 * Throws only where WordPress gives up (an IPv6-looking value that is not an address).
 */
export function parseDbHost(dbHost: string): DbHostParts {
  let rest = dbHost;
  let socketPath: string | undefined;
  const socketAt = rest.indexOf(':/');
  if (socketAt >= 0) {
    socketPath = rest.slice(socketAt + 1);
    rest = rest.slice(0, socketAt);
  }

  let host: string;
  let portText: string | undefined;
  if ((rest.match(/:/g) ?? []).length > 1) {
    const m = /^\[?([0-9a-fA-F:]+)(?:\]:(\d+))?/.exec(rest);
    if (!m) throw new Error(`DB_HOST '${dbHost}' is neither host[:port], [IPv6]:port nor host:/socket`);
    host = m[1];
    portText = m[2];
  } else {
    const m = /^([^:/]*)(?::(\d+))?/.exec(rest)!;
    host = m[1];
    portText = m[2];
  }

  const out: DbHostParts = {};
  if (host !== '') out.host = host;
  const port = portText === undefined ? 0 : parseInt(portText, 10);
  if (port > 0) out.port = port;
  if (socketPath !== undefined) out.socketPath = socketPath;
  else if (host === '' || host.toLowerCase() === 'localhost') out.defaultSocket = true;
  return out;
}

/**
 * The Unix socket mysqli would use for `localhost`: the first of DEFAULT_MYSQL_SOCKETS that exists,
 * or `undefined` (then connect over TCP to 127.0.0.1).
 */
export function resolveLocalhostSocket(exists: (path: string) => boolean = fs.existsSync): string | undefined {
  return DEFAULT_MYSQL_SOCKETS.find((p) => exists(p));
}

/** Where to connect for parsed DB_HOST parts: a socket path, or TCP host and port (default 3306). */
export function connectionTarget(
  parts: DbHostParts,
  exists: (path: string) => boolean = fs.existsSync,
): { socketPath: string } | { host: string; port: number } {
  if (parts.socketPath) return { socketPath: parts.socketPath };
  if (parts.defaultSocket) {
    const socketPath = resolveLocalhostSocket(exists);
    if (socketPath) return { socketPath };
    return { host: '127.0.0.1', port: parts.port ?? 3306 };
  }
  return { host: parts.host ?? '127.0.0.1', port: parts.port ?? 3306 };
}
