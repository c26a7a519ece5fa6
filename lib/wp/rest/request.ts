/**
 * Building a RestRequest from an HTTP request, with WordPress's request rules: the method override,
 * the trailing slash, PHP's query parsing, and the order in which parameter sources win.
 */
import type { IncomingMessage } from 'node:http';
import { WpError } from '../errors';
import { DecodedBody } from '../http/body';
import { PhpQueryValue } from '../http/php-query';

/** WP: the path after the prefix loses a trailing slash (an empty path is `/`). */
export function normalizeRestPath(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

/** WP: `_method` in the query, else X-HTTP-Method-Override, else the request's own method; uppercased. */
export function effectiveMethod(req: IncomingMessage, query: Record<string, PhpQueryValue>): string {
  const override = typeof query._method === 'string' ? query._method : req.headers['x-http-method-override'];
  const method = typeof override === 'string' && override ? override : req.method ?? 'GET';
  return method.toUpperCase();
}

export interface ParsedJson {
  value: Record<string, unknown> | null;
  error?: WpError;
}

/** WP: a JSON body must decode to something; an object's members become parameters. */
export function parseJsonBody(text: string | null, jsonError: (text: string) => { code: number; message: string }): ParsedJson {
  if (text === null || text.trim() === '') return { value: null };
  try {
    const value = JSON.parse(text);
    return { value: value && typeof value === 'object' && !Array.isArray(value) ? value : null };
  } catch {
    const { code, message } = jsonError(text);
    return {
      value: null,
      error: new WpError('rest_invalid_json', 'Invalid JSON body passed.', 400, { json_error_code: code, json_error_message: message }),
    };
  }
}

/**
 * WP: WP_REST_Request::get_parameter_order(): JSON body, then the form body (for methods with a body),
 * then the query, then the URL's named groups; the first source holding a name wins.
 */
export function mergeParams(
  method: string,
  json: Record<string, unknown> | null,
  body: DecodedBody,
  query: Record<string, unknown>,
  urlParams: Record<string, string>,
): Record<string, unknown> {
  const sources: Array<Record<string, unknown> | null> = [json];
  if (['POST', 'PUT', 'PATCH', 'DELETE'].includes(method)) sources.push(body.form);
  sources.push(query, urlParams);
  const params: Record<string, unknown> = {};
  for (const source of sources.reverse()) if (source) Object.assign(params, source);
  return params;
}
