/**
 * WP: the equivalent of WP_Error. Domain code throws it; the REST server and the
 * admin-ajax dispatcher render it in WordPress's shapes.
 */
export class WpError extends Error {
  readonly code: string;
  readonly status: number;
  /** Extra members of `data` besides `status` (e.g. `params`, `details`). */
  readonly data: Record<string, unknown>;

  constructor(code: string, message: string, status = 500, data: Record<string, unknown> = {}) {
    super(message);
    this.name = 'WpError';
    this.code = code;
    this.status = status;
    this.data = data;
  }

  /** The `{code, message, data}` body WordPress sends for an error. */
  toResponseBody(): { code: string; message: string; data: Record<string, unknown> } {
    return { code: this.code, message: this.message, data: { status: this.status, ...this.data } };
  }
}

export function isWpError(value: unknown): value is WpError {
  return value instanceof WpError;
}

/** A failure as logs and job records say it: its message (or its name when it has none). */
export function errorText(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}
