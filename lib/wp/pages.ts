/**
 * Pages that are neither REST nor admin-ajax (a plugin's script, an embeddable form, a feed, a
 * confirmation link), declared like routes: a path, a handler that answers status, headers and
 * body, and optionally an ETag so that a client polling an unchanged page gets a 304.
 */
import { createHash } from 'node:crypto';
import type { Express, Request, Response } from 'express';
import { PhpQueryValue, parsePhpQuery } from './http/php-query';
import { clientIp, isSecure, parseCookieHeader, queryString } from './http/request-info';
import { Site } from './site';

/** What a page handler sees of the request. */
export interface PageRequest {
  method: 'GET' | 'HEAD';
  /** Named parts of the path (`/frm/embed/:form` → `form`). */
  params: Record<string, string>;
  query: Record<string, PhpQueryValue>;
  cookies: Record<string, string>;
  ip: string;
  secure: boolean;
  site: Site;
  header(name: string): string | undefined;
}

export interface PageAnswer {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer;
}

export interface PageDeclaration {
  /** An Express path pattern, e.g. `/frm/embed/:form`. */
  path: string;
  /** The answer, or null to leave the request to what comes after (another page, the 404). */
  handler: (req: PageRequest) => Promise<PageAnswer | null>;
  /** Send a strong ETag of the body and answer a matching If-None-Match with 304. */
  etag?: boolean;
}

export class PageRegistry {
  private readonly pages: PageDeclaration[] = [];

  register(page: PageDeclaration): void {
    if (this.pages.some((p) => p.path === page.path)) throw new Error(`page "${page.path}" is registered twice`);
    this.pages.push(page);
  }

  /** Serves every page of `site` on `app` (GET and HEAD). */
  mount(app: Express, site: Site): void {
    for (const page of this.pages) {
      app.get(page.path, (req, res, next) => {
        servePage(site, page, req, res).then((served) => served || next(), next);
      });
    }
  }
}

/** Answers the request; false when the page left it to what comes after. */
async function servePage(site: Site, page: PageDeclaration, req: Request, res: Response): Promise<boolean> {
  const answer = await page.handler(pageRequest(site, req));
  if (!answer) return false;
  const headers = { ...answer.headers };
  const body = typeof answer.body === 'string' ? Buffer.from(answer.body, 'utf8') : answer.body;
  if (page.etag && answer.status === 200) {
    headers.ETag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    if (matchesEtag(req.headers['if-none-match'], headers.ETag)) {
      send(req, res, 304, headers, Buffer.alloc(0));
      return true;
    }
  }
  send(req, res, answer.status, headers, body);
  return true;
}

function pageRequest(site: Site, req: Request): PageRequest {
  return {
    method: req.method === 'HEAD' ? 'HEAD' : 'GET',
    params: Object.fromEntries(Object.entries(req.params).map(([k, v]) => [k, String(v)])),
    query: parsePhpQuery(queryString(req.originalUrl)),
    cookies: parseCookieHeader(req.headers.cookie),
    ip: clientIp(req),
    secure: isSecure(req),
    site,
    header: (name) => {
      const value = req.headers[name.toLowerCase()];
      return Array.isArray(value) ? value.join(', ') : value;
    },
  };
}

/** If-None-Match: `*` or a list of tags, weak ones compared weakly (RFC 9110 §13.1.2). */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** Writes the answer as given (Express's send() would rewrite the charset to lower case, unlike WordPress). */
function send(req: Request, res: Response, status: number, headers: Record<string, string>, body: Buffer): void {
  res.status(status).set(headers);
  if (status !== 304) res.setHeader('Content-Length', body.length);
  res.end(req.method === 'HEAD' || status === 304 ? undefined : body);
}
