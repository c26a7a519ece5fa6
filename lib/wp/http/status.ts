/**
 * WP: get_status_header_desc(): the reason phrase WordPress puts on the status line. Node's phrases
 * are the same except for these older RFC 2616 wordings, which WordPress still uses.
 */
import { STATUS_CODES, type ServerResponse } from 'node:http';

const WORDPRESS_PHRASES: Record<number, string> = {
  306: 'Reserved',
  413: 'Request Entity Too Large',
  414: 'Request-URI Too Long',
  416: 'Requested Range Not Satisfiable',
  418: "I'm a teapot",
};

export function statusText(code: number): string {
  return WORDPRESS_PHRASES[code] ?? STATUS_CODES[code] ?? '';
}

/** WP: status_header(): the status code with WordPress's reason phrase. */
export function setStatus(res: ServerResponse, code: number): void {
  res.statusCode = code;
  res.statusMessage = statusText(code);
}
