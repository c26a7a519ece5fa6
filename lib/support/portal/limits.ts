/** The portal sign-in's numbers (docs/portal.md). */
export const PORTAL_LIMITS = {
  /** A code is valid this long after it was sent. */
  codeTtlSeconds: 10 * 60,
  /** Wrong codes allowed per challenge, resends included. */
  codeFailures: 5,
  /** Seconds between two sends to the same address on the same site. */
  resendSeconds: 60,
  /** Codes per address and site per hour. */
  codesPerEmailHour: 5,
  /** Code requests per visitor address per hour. */
  codesPerIpHour: 20,
  /** Sign-in tries per visitor address per 10 minutes. */
  signInsPerIp: 10,
  signInWindowSeconds: 10 * 60,
  /** A session is valid this long from sign-in. */
  sessionTtlSeconds: 30 * 24 * 3600,
} as const;

/** The address as the portal keys it: trimmed, ASCII letters in lowercase. */
export function portalEmail(email: string): string {
  return email.trim().replace(/[A-Z]/g, (c) => c.toLowerCase());
}
