/**
 * The provider's HTTP requests on `node:http`/`node:https` with connections kept open between
 * answers, rather than `fetch`: fetch keeps a copy of every request body in two web streams (to
 * follow a redirect) and hands the answer over through a web stream, a cost per request and per
 * token that thousands of open answers felt (docs/performance.md, "Chat at scale"). Redirects are
 * not followed: a provider's API answers where it is.
 */
import http from 'node:http';
import https from 'node:https';

/**
 * The process's pool of connections to providers (as fetch's global pool is), most recently used
 * first so that few stay warm. A connection goes back to it once its answer has been read to the end.
 */
const AGENTS = {
  'http:': new http.Agent({ keepAlive: true, scheduling: 'lifo' }),
  'https:': new https.Agent({ keepAlive: true, scheduling: 'lifo' }),
};

export interface ProviderRequest {
  /** The response's headers; rejects when the request fails or is destroyed first. */
  response: Promise<http.IncomingMessage>;
  /** Ends the request and its connection (an answer no longer wanted). */
  destroy(): void;
}

/** `POST url` with a JSON body. */
export function postJson(url: string, headers: Record<string, string>, body: unknown): ProviderRequest {
  const payload = JSON.stringify(body);
  let current: http.ClientRequest | null = null;
  let destroyed = false;
  const response = new Promise<http.IncomingMessage>((resolve, reject) => {
    const send = (mayRetry: boolean) => {
      const target = new URL(url);
      const agent = AGENTS[target.protocol as keyof typeof AGENTS];
      if (!agent) throw new Error(`unsupported protocol ${target.protocol}`);
      const req = (target.protocol === 'https:' ? https : http).request(target, {
        method: 'POST', agent,
        headers: { ...headers, 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(payload)) },
      });
      current = req;
      req.once('response', resolve);
      req.once('error', (err: NodeJS.ErrnoException) => {
        // A kept connection the provider closed just as it was reused: the request never reached it.
        if (mayRetry && !destroyed && req.reusedSocket && err.code === 'ECONNRESET') send(false);
        else reject(err);
      });
      req.end(payload);
    };
    try {
      send(true);
    } catch (err) {
      reject(err);
    }
  });
  return {
    response,
    destroy() {
      destroyed = true;
      (current as http.ClientRequest | null)?.destroy();
    },
  };
}

/** The whole body as text; rejects when the connection closes before its end. */
export function readText(res: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (piece: string) => { text += piece; });
    res.once('end', () => resolve(text));
    res.once('error', reject);
    res.once('close', () => { if (!res.complete) reject(new Error('the connection closed before the end of the answer')); });
  });
}
