/**
 * Building a RestRequest from an HTTP request, with WordPress's request rules: the method override,
 * the trailing slash, PHP's query parsing, and the order in which parameter sources win.
 */
import type { IncomingMessage } from 'node:http';
import { WpError } from '../errors';
import { DecodedBody, mediaType } from '../http/body';
import { PhpQueryValue, parsePhpQuery, setOwn } from '../http/php-query';
import { jsonErrorForBody } from '../php/json';

/** WP: rest_api_loaded() untrailingslashit()s the route (slashes and backslashes); an empty one is `/`. */
export function normalizeRestPath(path: string): string {
  const trimmed = path.replace(/[/\\]+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

export interface EffectiveMethod {
  method: string;
  /** True when X-HTTP-Method-Override set it (WordPress then sends no-cache headers with a 4xx). */
  overriddenByHeader: boolean;
}

/** WP: `_method` in the query if set at all, else X-HTTP-Method-Override, else the request's own method; uppercased. */
export function effectiveMethod(req: IncomingMessage, query: Record<string, PhpQueryValue>): EffectiveMethod {
  if (query._method !== undefined) {
    // PHP would fail on an array here; treating it as no method at all answers rest_no_route instead.
    return { method: typeof query._method === 'string' ? query._method.toUpperCase() : '', overriddenByHeader: false };
  }
  const header = req.headers['x-http-method-override'];
  if (typeof header === 'string') return { method: header.toUpperCase(), overriddenByHeader: true };
  return { method: (req.method ?? 'GET').toUpperCase(), overriddenByHeader: false };
}

export interface ParsedJson {
  value: Record<string, unknown> | null;
  error?: WpError;
}

/**
 * WP: parse_json_params(): a JSON body PHP calls empty (`''`, `'0'`) is skipped; any other body must
 * decode as PHP's json_decode() decodes it (checked on the raw bytes, so invalid UTF-8 and lone
 * surrogates fail as they do in PHP); an object's members become parameters.
 */
export function parseJsonBody(raw: Buffer | null): ParsedJson {
  if (raw === null || raw.length === 0 || (raw.length === 1 && raw[0] === 0x30)) return { value: null };
  const error = jsonErrorForBody(raw);
  if (error) {
    return {
      value: null,
      error: new WpError('rest_invalid_json', 'Invalid JSON body passed.', 400, { json_error_code: error.code, json_error_message: error.message }),
    };
  }
  const value = JSON.parse(raw.toString('utf8'));
  return { value: value && typeof value === 'object' && !Array.isArray(value) ? value : null };
}

/**
 * WP: the POST parameters of a REST request: PHP's $_POST, plus (for any method but POST) a
 * non-empty body with no or a form-encoded Content-Type parsed by parse_str(), $_POST winning.
 */
export function bodyParams(method: string, body: DecodedBody, raw: Buffer, contentType: string | undefined): Record<string, unknown> | null {
  const type = mediaType(contentType);
  const parseBody = method !== 'POST' && raw.length > 0 && raw.toString('latin1') !== '0'
    && (type === null || type === 'application/x-www-form-urlencoded');
  if (!parseBody) return body.form;
  return { ...parsePhpQuery(raw.toString('utf8')), ...(body.form ?? {}) };
}

/**
 * WP: WP_REST_Request::get_parameter_order(): JSON body, then the POST parameters (for methods with a
 * body), then the query, then the URL's named groups; the first source holding a name wins.
 */
export function mergeParams(
  method: string,
  json: Record<string, unknown> | null,
  post: Record<string, unknown> | null,
  query: Record<string, unknown>,
  urlParams: Record<string, string>,
): Record<string, unknown> {
  const sources: Array<Record<string, unknown> | null> = [json];
  if (['POST', 'PUT', 'PATCH', 'DELETE'].includes(method)) sources.push(post);
  sources.push(query, urlParams);
  const params: Record<string, unknown> = {};
  for (const source of sources.reverse()) if (source) for (const [k, v] of Object.entries(source)) setOwn(params, k, v);
  return params;
}
