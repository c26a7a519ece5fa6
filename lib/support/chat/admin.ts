/**
 * POST /chat/admin/test (docs/chat.md, "Admin"): one small, non-streamed provider call with the saved
 * settings; reports whether it worked, the model that answered and how long it took, or the
 * provider's own error (a manager sees it; visitors never do).
 */
import { performance } from 'node:perf_hooks';
import { Site } from '../../wp/site';
import { ProviderError, completeChat } from './provider';
import { readChatSettings } from './settings';

export type ProviderTest =
  | { ok: true; model: string; latency_ms: number }
  | { ok: false; model: string; latency_ms: number; error: { kind: string; message: string; status: number | null } };

export async function testProvider(site: Site): Promise<ProviderTest> {
  const { provider } = await readChatSettings(site.options);
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const answer = await completeChat(provider, [{ role: 'user', content: 'Reply with the word OK.' }], undefined, 5);
    return { ok: true, model: answer.model, latency_ms: elapsed() };
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err;
    return { ok: false, model: provider.model, latency_ms: elapsed(), error: { kind: err.kind, message: err.message, status: err.status ?? null } };
  }
}
