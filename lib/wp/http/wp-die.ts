/**
 * WP: wp_die() for a request WordPress refuses before any plugin work (a blocked site of a network,
 * an address that names no site): plain text through admin-ajax.php (wp_doing_ajax(), whose default
 * status is 200), JSON when the request asks for it (wp_is_json_request()), else an HTML page. A null
 * status is wp_die()'s default.
 */
import type { IncomingMessage } from 'node:http';

export interface WpDie {
  status: number | null;
  /** HTML, as WordPress words it. */
  message: string;
}

export interface WpDieAnswer {
  status: number;
  contentType: string;
  body: string;
}

export function wpDieAnswer(req: IncomingMessage, die: WpDie): WpDieAnswer {
  const path = (req.url ?? '/').split('?')[0] as string;
  if (/\/wp-admin\/admin-ajax\.php$/.test(path)) return { status: die.status ?? 200, contentType: 'text/html; charset=UTF-8', body: die.message };
  const status = die.status ?? 500;
  if (wantsJson(req)) {
    return { status, contentType: 'application/json; charset=UTF-8', body: JSON.stringify({ code: 'wp_die', message: die.message, data: { status }, additional_errors: [] }) };
  }
  return { status, contentType: 'text/html; charset=UTF-8', body: page(die.message) };
}

/** WP: wp_is_json_request(): a JSON media type in Accept or Content-Type. */
function wantsJson(req: IncomingMessage): boolean {
  const json = /(^|,|\s)application\/json|\+json/i;
  return json.test(String(req.headers.accept ?? '')) || json.test(String(req.headers['content-type'] ?? ''));
}

/** WP: _default_wp_die_handler()'s page, reduced to its title and message. */
function page(message: string): string {
  return `<!DOCTYPE html>\n<html lang="en-US">\n<head>\n<meta http-equiv="Content-Type" content="text/html; charset=utf-8" />\n`
    + `<meta name="viewport" content="width=device-width">\n<title>WordPress &rsaquo; Error</title>\n</head>\n`
    + `<body id="error-page">\n\t<div class="wp-die-message">${message}</div></body>\n</html>\n`;
}
