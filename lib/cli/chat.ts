/**
 * `understudy chat test|learn` (docs/chat.md, "Admin"): what POST /chat/admin/test and
 * /chat/admin/learn do, from the command line. `test` makes one small call to the model with the
 * saved settings. `learn` chunks every public doc into the passages answers are grounded in and
 * reports them; the passage index lives in each server process, so this checks and measures what a
 * server learns (a running server learns on its first question, or through POST /chat/admin/learn).
 */
import { performance } from 'node:perf_hooks';
import { testProvider } from '../support/chat/admin';
import { LearningProgress, learnBatch } from '../support/chat/retrieval';
import { loadSiteConfig } from '../wp/config';
import { phpJsonEncode } from '../wp/php/json';
import { CliError, choiceFlag, parseCommandArgs } from './args';
import { CliContext, line, success, withSite } from './context';
import { Subcommand, runSubcommand } from './subcommands';

export const CHAT_HELP = `usage: understudy chat <subcommand> [--format=table|json]

Subcommands:
  test    Sends the model one small request with the saved chat settings (svc_settings: chat_base_url,
          chat_model, chat_api_key) and says whether it answered, which model, and how fast; the
          provider's own error otherwise (exit status 1). --format=json prints
          {ok, model, latency_ms[, error: {kind, message, status}]}.
  learn   Chunks every public doc (published, no password) into the passages the assistant answers
          from, and prints how many docs and passages there are and how long it took.
          --format=json prints {docs, learned, left, passages, seconds}. Each server process keeps
          its own passages and learns on its first question; POST /chat/admin/learn warms a
          running one (docs/chat.md).
`;

const SUBCOMMANDS: Record<string, Subcommand> = { test, learn };

export function chatCommand(ctx: CliContext, argv: string[]): Promise<number> {
  return runSubcommand(ctx, argv, { name: 'chat', help: CHAT_HELP, subcommands: SUBCOMMANDS });
}

async function test(ctx: CliContext, argv: string[]): Promise<number> {
  const format = formatOf(argv, 'test');
  return withSite(ctx, loadSiteConfig(ctx.env, ctx.cwd), async ({ site }) => {
    const result = await testProvider(site);
    if (format === 'json') line(ctx, phpJsonEncode(result));
    if (result.ok) {
      if (format === 'table') success(ctx, `The model '${result.model}' answered in ${result.latency_ms} ms.`);
      return 0;
    }
    const status = result.error.status === null ? '' : ` (HTTP ${result.error.status})`;
    ctx.stderr.write(`Error: The model '${result.model}' did not answer: ${result.error.kind}${status}: ${result.error.message}\n`);
    return 1;
  });
}

async function learn(ctx: CliContext, argv: string[]): Promise<number> {
  const format = formatOf(argv, 'learn');
  return withSite(ctx, loadSiteConfig(ctx.env, ctx.cwd), async ({ site }) => {
    const started = performance.now();
    let progress: LearningProgress;
    do progress = await learnBatch(site);
    while (progress.left > 0 && (progress.chunked ?? 0) > 0);
    const seconds = Math.round(performance.now() - started) / 1000;
    const { docs, learned, left, passages } = progress;
    if (format === 'json') line(ctx, phpJsonEncode({ docs, learned, left, passages, seconds }));
    else success(ctx, `Learned ${learned} of ${docs} public docs: ${passages} passages in ${seconds.toFixed(1)} s.`);
    return 0;
  });
}

function formatOf(argv: string[], name: string): 'table' | 'json' {
  const args = parseCommandArgs(argv, { format: 'string' });
  if (args.positional.length) throw new CliError(`Too many arguments. Usage: understudy chat ${name} [--format=table|json]`);
  return choiceFlag(args, 'format', ['table', 'json'], 'table');
}
