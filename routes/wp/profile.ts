/**
 * `GET /wp-admin/profile.php?newuseremail=<hash>`: the link of an email change confirmation
 * (lib/wp/users-email-change.ts), served the way WordPress's profile screen handles it, mounted by
 * lib/app.ts. Only requests carrying `newuseremail` are answered here; the rest of the profile screen
 * stays WordPress's. The signed-in user is the one WordPress's cookies name (the auth cookie, else the
 * logged-in cookie, as on admin-ajax.php); a signed-out visitor is sent to wp-login.php and back, as
 * auth_redirect() does. Answers are small plain pages; every inserted value is escaped.
 */
import { Request, Response, Router } from 'express';
import { parsePhpQuery, phpUrlencode } from '../../lib/wp/http/php-query';
import { clientIp, isSecure, parseCookieHeader, queryString } from '../../lib/wp/http/request-info';
import { Site } from '../../lib/wp/site';
import { EmailConfirmation, confirmEmailChange } from '../../lib/wp/users-email-confirm';

export const PROFILE_PATH = '/wp-admin/profile.php';

const PAGE_HEADERS = {
  'Content-Type': 'text/html; charset=UTF-8',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'SAMEORIGIN',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'self'",
  // The address holds the confirmation hash: no page it links to should receive it.
  'Referrer-Policy': 'no-referrer',
  'X-Robots-Tag': 'noindex',
  Expires: 'Wed, 11 Jan 1984 05:00:00 GMT',
  'Cache-Control': 'no-cache, must-revalidate, max-age=0, no-store, private',
};

/** The router answering email change confirmation links for `site`. */
export function profilePages(site: Site): Router {
  const router = Router();
  router.get(PROFILE_PATH, (req, res, next) => {
    const hash = parsePhpQuery(queryString(req.originalUrl)).newuseremail;
    if (hash === undefined) return next();
    confirmNewEmail(site, req, res, hash).catch(next);
  });
  return router;
}

/** WP: user-edit.php's `newuseremail` branch, for whoever the cookies sign in. */
async function confirmNewEmail(site: Site, req: Request, res: Response, hash: unknown): Promise<void> {
  const current = await site.auth.forAjax({ method: 'GET', cookies: parseCookieHeader(req.headers.cookie), ip: clientIp(req), secure: isSecure(req) });
  if (current.id <= 0) return redirectToLogin(site, req, res, hash);
  const outcome = await confirmEmailChange(site, current.id, hash);
  const page = pageFor(outcome);
  send(req, res, page.status, PAGE_HEADERS, htmlPage(page.title, page.paragraphs));
}

/** WP: auth_redirect(): to wp-login.php with `redirect_to` this link and `reauth=1` (302). */
async function redirectToLogin(site: Site, req: Request, res: Response, hash: unknown): Promise<void> {
  const base = await site.siteUrl();
  const back = `${base}${PROFILE_PATH}?newuseremail=${phpUrlencode(typeof hash === 'string' ? hash : '')}`;
  const login = `${base}/wp-login.php?redirect_to=${phpUrlencode(back)}&reauth=1`;
  res.setHeader('Location', login);
  send(req, res, 302, PAGE_HEADERS, htmlPage('Sign in to confirm', ['Sign in first; you will come back to this link.'], login));
}

interface Page {
  status: number;
  title: string;
  paragraphs: string[];
}

function pageFor(outcome: EmailConfirmation): Page {
  switch (outcome.result) {
    case 'changed':
      return { status: 200, title: 'Email address changed', paragraphs: [`The email address of your account is now ${outcome.email}.`] };
    case 'taken':
      return {
        status: 409,
        title: 'Email address not changed',
        paragraphs: [`${outcome.email} is already used by another account, so your account keeps its address.`, 'You can ask for a different address in your profile.'],
      };
    default:
      return {
        status: 400,
        title: 'This link does not work',
        paragraphs: [
          'There is no email change waiting for this link on the account you are signed in with: it may have been used, replaced by a newer request, or be meant for another account.',
          'Nothing was changed.',
        ],
      };
  }
}

/** A minimal complete page; `link`, when given, is offered below the text. All text is escaped. */
function htmlPage(title: string, paragraphs: string[], link?: string): string {
  const body = paragraphs.map((p) => `<p>${escapeText(p)}</p>`).join('\n');
  const anchor = link ? `\n<p><a href="${escapeText(link)}">Continue</a></p>` : '';
  return `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="UTF-8">\n<meta name="robots" content="noindex">\n<title>${escapeText(title)}</title>\n</head>\n<body>\n<h1>${escapeText(title)}</h1>\n${body}${anchor}\n</body>\n</html>\n`;
}

/** Every character that means something in HTML text or a quoted attribute, as an entity. */
function escapeText(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Writes the answer as given (Express's send() would rewrite the charset to lower case, unlike WordPress). */
function send(req: Request, res: Response, status: number, headers: Record<string, string>, body: string): void {
  res.status(status).set(headers).setHeader('Content-Length', Buffer.byteLength(body));
  res.end(req.method === 'HEAD' ? undefined : body);
}
