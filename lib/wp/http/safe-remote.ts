/**
 * WP: wp_safe_remote_get(): one GET that connects only where ./outgoing-allow.ts permits. The check
 * is made on the address the socket connects to, not on the name: an address in the URL (in any form
 * the URL parser accepts: `2130706433`, `0x7f.1`, `[::ffff:127.0.0.1]` are all 127.0.0.1 by then)
 * before connecting, a name's addresses as they resolve, inside the `lookup` the socket connects
 * with, so a name that resolves to another address the second time (DNS rebinding) meets the check
 * again. A refused request never opens a connection. Redirects are not followed: the caller checks
 * each hop by asking again.
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { OutgoingAllowance, mayConnect } from './outgoing-allow';

/** A destination outgoing requests may not reach; the message says which, for the server's log. */
export class OutgoingRefused extends Error {
  override name = 'OutgoingRefused';
}

export interface SafeGetOptions {
  allow: OutgoingAllowance;
  headers: Record<string, string>;
  signal: AbortSignal;
}

/** The response (its body unread), or an error: OutgoingRefused, a network error, an abort. */
export function safeGet(url: URL, options: SafeGetOptions): Promise<http.IncomingMessage> {
  const name = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  const literal = net.isIP(name) !== 0;
  if (literal && !mayConnect(options.allow, name, name, port)) return Promise.reject(new OutgoingRefused(`${name} port ${port} is not allowed`));
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(url, {
      method: 'GET', headers: options.headers, signal: options.signal, agent: false,
      ...(literal ? {} : { lookup: checkedLookup(options.allow, name, port) }),
    });
    req.once('response', resolve);
    req.once('error', reject);
    req.end();
  });
}

/** dns.lookup() that answers only the addresses a request for `name` may connect to on `port`. */
function checkedLookup(allow: OutgoingAllowance, name: string, port: number): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, found) => {
      if (err) return callback(err, '', 0);
      const usable = found.filter((a) => mayConnect(allow, name, a.address, port));
      if (!usable.length) return callback(new OutgoingRefused(`${name} (${found.map((a) => a.address).join(', ')}) port ${port} is not allowed`), '', 0);
      if (options.all) return callback(null, usable);
      return callback(null, usable[0].address, usable[0].family);
    });
  };
}
