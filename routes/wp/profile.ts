/**
 * `GET /wp-admin/profile.php?newuseremail=<hash>`: the link of an email change confirmation
 * (lib/wp/users-email-change.ts), served the way WordPress's profile screen handles it, registered
 * on the page registry by routes/index.ts. Only requests carrying `newuseremail` are answered here;
 * the rest of the profile screen stays WordPress's (404 here). The signed-in user is the one WordPress's cookies name (the auth cookie, else the
 * logged-in cookie, as on admin-ajax.php); a signed-out visitor is sent to wp-login.php and back, as
 * auth_redirect() does. Answers are small plain pages; every inserted value is escaped.
 */
import { phpUrlencode } from '../../lib/wp/http/php-query';
import { PageAnswer, PageDeclaration, PageRequest } from '../../lib/wp/pages';
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

/** The confirmation link's page; without `newuseremail` it leaves the request to the 404. */
export const emailConfirmationPage: PageDeclaration = {
  path: PROFILE_PATH,
  handler: async (req) => (req.query.newuseremail === undefined ? null : confirmNewEmail(req, req.query.newuseremail)),
};

/** WP: user-edit.php's `newuseremail` branch, for whoever the cookies sign in. */
async function confirmNewEmail(req: PageRequest, hash: unknown): Promise<PageAnswer> {
  const { site } = req;
  const current = await site.auth.forAjax({ method: 'GET', cookies: req.cookies, ip: req.ip, secure: req.secure });
  if (current.id <= 0) return redirectToLogin(req, hash);
  const page = pageFor(await confirmEmailChange(site, current.id, hash));
  return { status: page.status, headers: PAGE_HEADERS, body: htmlPage(page.title, page.paragraphs) };
}

/** WP: auth_redirect(): to wp-login.php with `redirect_to` this link and `reauth=1` (302). */
async function redirectToLogin(req: PageRequest, hash: unknown): Promise<PageAnswer> {
  const base = await req.site.siteUrl();
  const back = `${base}${PROFILE_PATH}?newuseremail=${phpUrlencode(typeof hash === 'string' ? hash : '')}`;
  const login = `${base}/wp-login.php?redirect_to=${phpUrlencode(back)}&reauth=1`;
  return { status: 302, headers: { ...PAGE_HEADERS, Location: login }, body: htmlPage('Sign in to confirm', ['Sign in first; you will come back to this link.'], login) };
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
