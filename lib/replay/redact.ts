/**
 * Keeping secrets out of reports and logs. Results are redacted where they are made, so no report
 * (text, JSON, HTML, a shadow log line) ever receives a credential to leak.
 */
import type { Difference } from './compare-rules';
import { SECRET_HEADERS } from './credentials';

export const REDACTED = '[redacted]';

/** Shorter strings are not treated as secrets: redacting `1` or `ab` everywhere would garble reports. */
const MIN_SECRET_LENGTH = 6;

export class Redactor {
  private readonly secrets: string[];

  /**
   * @param secrets exact strings to hide wherever they appear (credentials, captured nonces)
   * @param patterns whole values to hide (the shapes of nonces), e.g. a fresh nonce the target made
   */
  constructor(secrets: Iterable<string>, private readonly patterns: readonly RegExp[] = []) {
    this.secrets = [...new Set([...secrets].filter((s) => s.length >= MIN_SECRET_LENGTH))].sort((a, b) => b.length - a.length);
  }

  /** A copy that also hides `more`. */
  with(more: Iterable<string>): Redactor {
    return new Redactor([...this.secrets, ...more], this.patterns);
  }

  text(value: string): string {
    if (this.patterns.some((p) => p.test(value.trim()))) return REDACTED;
    let out = value;
    for (const secret of this.secrets) out = out.split(secret).join(REDACTED);
    return out;
  }

  difference(d: Difference): Difference {
    const header = /^header (.+)$/.exec(d.where)?.[1];
    if (header && SECRET_HEADERS.has(header)) return { where: d.where, expected: hide(d.expected), actual: hide(d.actual) };
    return { where: d.where, expected: this.text(d.expected), actual: this.text(d.actual) };
  }
}

function hide(value: string): string {
  return value === '(absent)' ? value : REDACTED;
}
