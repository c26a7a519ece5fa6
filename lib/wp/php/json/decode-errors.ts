/**
 * PHP JSON: decoding errors: the json_last_error() a JSON request body gets from json_decode() when
 * WP_REST_Request::parse_json_params() refuses it. The scanning itself is in scanner.ts.
 */
import { PHP_JSON_ERRORS, type PhpJsonErrorCode } from './errors';
import { PhpJsonScanner } from './scanner';

export interface PhpJsonDecodeError {
  /** json_last_error(): 1 depth, 3 control character, 4 syntax, 5 UTF-8, 10 lone UTF-16 surrogate escape. */
  code: PhpJsonErrorCode;
  /** json_last_error_msg(). */
  message: string;
}

/**
 * WP: the json_last_error() that WP_REST_Request::parse_json_params() reports for a JSON request body,
 * or null when WordPress accepts the body. A body PHP calls empty (`''` or `'0'`) is never parsed, so it
 * is accepted; so is any valid JSON text, `null` included.
 *
 * Follows PHP's own scanner (ext/json) rather than JSON.parse: the first problem met reading left to
 * right decides the code, so an unterminated string is 3 (it runs into the terminating NUL), a raw
 * control character is 3, an invalid UTF-8 byte is 5, `\ud800` without its pair is 10, a bad escape
 * or any grammar error is 4, and nesting deeper than 512 is 1. Pass the raw bytes (a Buffer) so that
 * invalid UTF-8 can be seen; a JS string has already lost it.
 */
export function jsonErrorForBody(body: string | Uint8Array): PhpJsonDecodeError | null {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  if (bytes.length === 0 || (bytes.length === 1 && bytes[0] === 0x30)) return null;
  const code = new PhpJsonScanner(bytes).check();
  return code === 0 ? null : { code, message: PHP_JSON_ERRORS[code] };
}
