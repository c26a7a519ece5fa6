/**
 * Who in the proxy's own process answers a request: one site's app, or, in front of a whole network,
 * the site the request's Host and path name (lib/network-app.ts), found per request as WordPress
 * finds it. Routing reads the URL as that site reads it (`/two/wp-json/x` is `/wp-json/x` of blog 2).
 */
import type { IncomingMessage, RequestListener } from 'node:http';
import type { Logger } from '../logger';
import { NetworkSurface, answerFailure, findSite, serveSite, withinSite } from '../network-app';

/** The site a request is for, as the proxy routes and answers it. */
export interface SiteFor {
  /** Path and query as the site's routes read them. */
  url: string;
  /** On a network: the blog the request is for. */
  blogId?: number;
  /** Answers the request (given with its URL as received) as Understudy would for that site. */
  answer: RequestListener;
}

export interface UnderstudyFront {
  /** The site of this request, or null when the address names none (the upstream answers it). */
  find(req: IncomingMessage): Promise<SiteFor | null>;
}

/** One site: every request is its. */
export function singleSiteFront(app: RequestListener): UnderstudyFront {
  return { find: async (req) => ({ url: req.url ?? '/', answer: app }) };
}

/**
 * A whole network: the lookup of `serve` on a network. An address naming no site is left to PHP (it
 * answers its own redirect or error); a blocked site's implemented routes get ms_site_check()'s
 * wp_die() from Understudy, as PHP would answer them.
 */
export function networkFront(network: NetworkSurface, logger: Logger): UnderstudyFront {
  return {
    async find(req) {
      const found = await findSite(network.sites, req);
      if (found.found !== 'site') return null;
      return {
        url: withinSite(req.url ?? '/', found.site.path),
        blogId: found.site.blogId,
        answer: (request, res) => void serveSite(network, found, request, res).catch((err) => answerFailure(logger, request, res, err)),
      };
    },
  };
}
