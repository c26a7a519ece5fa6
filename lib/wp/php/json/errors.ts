/**
 * PHP JSON: what encoding and decoding share: json_last_error()'s codes and messages, the default
 * depth, and the error thrown when json_encode() would fail.
 */

/** PHP's json_last_error() codes and json_last_error_msg() texts (PHP 7.0–8.x). */
export const PHP_JSON_ERRORS = {
  0: 'No error',
  1: 'Maximum stack depth exceeded',
  3: 'Control character error, possibly incorrectly encoded',
  4: 'Syntax error',
  5: 'Malformed UTF-8 characters, possibly incorrectly encoded',
  7: 'Inf and NaN cannot be JSON encoded',
  10: 'Single unpaired UTF-16 surrogate in unicode escape',
} as const;

export type PhpJsonErrorCode = keyof typeof PHP_JSON_ERRORS;

/** json_encode()/json_decode() default depth. */
export const PHP_JSON_DEPTH = 512;

/** json_encode() failed (wp_json_encode() would return false; the REST server answers `rest_encode_error`). */
export class PhpJsonEncodeError extends Error {
  readonly code: PhpJsonErrorCode;

  constructor(code: PhpJsonErrorCode) {
    super(PHP_JSON_ERRORS[code]);
    this.name = 'PhpJsonEncodeError';
    this.code = code;
  }
}
