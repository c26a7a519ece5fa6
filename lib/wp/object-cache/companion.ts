/**
 * The PHP companion (wordpress/wp-content/mu-plugins/understudy-cache-companion.php): for a drop-in
 * whose key scheme Understudy does not know, each write's changes are posted to a route WordPress
 * answers, which runs WordPress's own cache-cleaning functions for them. Works with any drop-in,
 * since WordPress does the work; costs one signed HTTP request per write.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { WordPressChanges } from '../changes';
import { InvalidateOptions, ObjectCacheInvalidator } from './invalidator';

export interface CompanionCacheConfig {
  /**
   * PHP's WordPress: the site's address, or better the address PHP answers on behind the proxy
   * (its upstream, e.g. `http://127.0.0.1:8081`), so the call skips nginx and the proxy.
   */
  siteUrl: string;
  /** wp_salt('auth') as PHP computes it (`Salts.salt('auth')`): the HMAC key is derived from it. */
  authSalt: string;
  timeoutMs?: number;
}

export const COMPANION_TIMEOUT_MS = 5000;
const MAX_SOCKETS = 32;
/** The companion's route, reached with `?rest_route=`, which WordPress reads whatever the permalinks. */
export const COMPANION_ROUTE = '/understudy-companion/v1/invalidate';
/** Must match UNDERSTUDY_COMPANION_KEY_LABEL in the mu-plugin. */
const KEY_LABEL = 'understudy-cache-companion';

/** The HMAC key both sides compute: hex HMAC-SHA256 of a fixed label, keyed with the auth salt. */
export function companionKey(authSalt: string): string {
  return createHmac('sha256', authSalt).update(KEY_LABEL).digest('hex');
}

/** The X-Understudy-Signature value: covers the timestamp and the exact body. */
export function companionSignature(key: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', key).update(`${timestamp}\n${body}`).digest('hex')}`;
}

/**
 * The body the companion reads: WordPressChanges as plain JSON (maps keyed by ID become objects),
 * and `"repeat": true` when the changes were sent before, so that PHP's action fires once per write.
 */
export function companionPayload(changes: WordPressChanges, options: InvalidateOptions = {}): string {
  return JSON.stringify(options.repeat ? { ...changes.toJSON(), repeat: true } : changes.toJSON());
}

/** Where the companion answers on a site: its front page with the route as `rest_route`. */
export function companionUrl(siteUrl: string): URL {
  const url = new URL(siteUrl);
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  url.searchParams.set('rest_route', COMPANION_ROUTE);
  return url;
}

export function companionInvalidator(config: CompanionCacheConfig): ObjectCacheInvalidator {
  const url = companionUrl(config.siteUrl);
  const client = url.protocol === 'https:' ? https : http;
  // Concurrent writes each wait for their own call; every call has its own deadline (post()) anyway.
  const agent = new client.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS });
  const key = companionKey(config.authSalt);
  const timeoutMs = config.timeoutMs ?? COMPANION_TIMEOUT_MS;
  return {
    kind: 'companion',
    async invalidate(changes, options) {
      if (changes.empty) return;
      const body = companionPayload(changes, options);
      const timestamp = String(Math.floor(Date.now() / 1000));
      await post(client, agent, url, timeoutMs, body, {
        'content-type': 'application/json',
        'x-understudy-timestamp': timestamp,
        'x-understudy-signature': companionSignature(key, timestamp, body),
      });
    },
    async close() {
      agent.destroy();
    },
  };
}

/**
 * One POST; resolves on 2xx, rejects with the status and the start of the answer otherwise. The
 * deadline runs from the call, not from when the agent hands it a socket: a call queued behind
 * stalled ones fails on time too.
 */
function post(
  client: typeof http | typeof https, agent: http.Agent, url: URL, timeoutMs: number, body: string,
  headers: Record<string, string>,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const signal = AbortSignal.timeout(timeoutMs);
    const fail = (err: Error) => reject(signal.aborted ? new Error(`The cache companion at ${url.origin} gave no answer within ${timeoutMs / 1000} s.`) : err);
    const req = client.request(url, { method: 'POST', agent, signal, headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
      const chunks: Buffer[] = [];
      let held = 0;
      res.on('data', (chunk: Buffer) => {
        if (held < 1024) chunks.push(chunk);
        held += chunk.length;
      });
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        if (status >= 200 && status < 300) return resolve();
        const answer = Buffer.concat(chunks).toString('utf8').slice(0, 200);
        reject(new Error(`The cache companion at ${url.origin} answered ${status}: ${answer}`));
      });
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end(body);
  });
}
