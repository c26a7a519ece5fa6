/**
 * Sending a team alert: a JSON POST to the configured URL with `X-Svc-Event`, a stable
 * `X-Svc-Delivery` (receivers drop repeats by it: a retry or a re-send after a crash carries the same
 * one) and, when a secret is set, `X-Svc-Signature: sha256=<hex HMAC-SHA256 of the raw body>`.
 *
 * The URL is checked here, when sending, because settings are written with `option patch` where
 * Understudy cannot refuse them: only `https://`, or `http://` to a loopback address.
 */
import { createHmac } from 'node:crypto';
import { TeamAlertBody } from './team-alert';
import { userAgent } from '../user-agent';

export interface AlertTarget {
  url: string;
  /** '' = unsigned. */
  secret: string;
}

export interface AlertResult {
  ok: boolean;
  /** The receiver's HTTP status; null when none came (refused URL, network error, timeout). */
  status: number | null;
  /** What went wrong ('' when ok). */
  error: string;
  /** True after a rate limit (429), a server error (5xx), a timeout or a network error. */
  retryable: boolean;
}

export const ALERT_TIMEOUT_MS = 10_000;

/** Why the URL may not receive alerts, or null when it may. */
export function alertUrlProblem(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `The team-alert URL "${url}" is not a valid URL.`;
  }
  if (parsed.protocol === 'https:') return null;
  if (parsed.protocol === 'http:' && isLoopback(parsed.hostname)) return null;
  return `The team-alert URL must start with https:// (plain http:// only for loopback addresses), got "${url}".`;
}

/** `sha256=` and the hex HMAC-SHA256 of the raw body under the secret. */
export function signatureOf(rawBody: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody, 'utf8').digest('hex')}`;
}

export async function postTeamAlert(target: AlertTarget, body: TeamAlertBody, deliveryId: string, timeoutMs = ALERT_TIMEOUT_MS): Promise<AlertResult> {
  const problem = alertUrlProblem(target.url);
  if (problem) return { ok: false, status: null, error: problem, retryable: false };
  const raw = JSON.stringify(body);
  const headers: Record<string, string> = {
    'Content-Type': 'application/json; charset=utf-8',
    'User-Agent': userAgent(),
    'X-Svc-Event': body.event,
    'X-Svc-Delivery': deliveryId,
  };
  if (target.secret) headers['X-Svc-Signature'] = signatureOf(raw, target.secret);
  try {
    // A redirect is not followed: it would turn the POST into a GET or leave the checked address.
    const res = await fetch(target.url, { method: 'POST', headers, body: raw, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    await res.body?.cancel().catch(() => undefined);
    if (res.status >= 200 && res.status < 300) return { ok: true, status: res.status, error: '', retryable: false };
    const retryable = res.status === 429 || res.status >= 500;
    return { ok: false, status: res.status, error: `The receiver answered HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}.`, retryable };
  } catch (err) {
    return { ok: false, status: null, error: networkError(err, timeoutMs), retryable: true };
  }
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

function networkError(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return `No answer within ${timeoutMs / 1000} s.`;
  const cause = e?.cause?.code ?? e?.cause?.message;
  return `Could not reach the receiver: ${e?.message ?? String(err)}${cause ? ` (${cause})` : ''}.`;
}
