/**
 * The error unserialize reports for malformed input, with the character offset where it gave up.
 * Its own module so the reader (which throws it) and unserialize.ts (which catches it) share it
 * without importing each other.
 */

/** Why unserialize failed, and at which character offset of the input. */
export class PhpUnserializeError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(`${message} at offset ${offset}`);
    this.name = 'PhpUnserializeError';
  }
}
