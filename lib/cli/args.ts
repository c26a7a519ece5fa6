/**
 * The command line as WP-CLI reads it: positional arguments, `--flag=value`, bare `--flag` (true) and
 * `--no-flag` (false). Unlike WP-CLI, `--flag value` is also accepted for the flags a command declares
 * as taking a value, so `--port 9000` works; `--` ends the flags.
 */

export type FlagKind = 'string' | 'boolean';

/** The flags one command accepts, by name (without the leading dashes). */
export type FlagSpec = Readonly<Record<string, FlagKind>>;

export interface ParsedArgs {
  positional: string[];
  flags: Record<string, string | boolean>;
}

/** A mistake on the command line; the CLI prints it as `Error: <message>` and exits 1. */
export class CliError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliError';
  }
}

/**
 * Splits `argv` into positional arguments and flags. `valued` names the flags that may take their
 * value from the next argument; other bare flags are booleans. A later repeat of a flag wins.
 */
export function parseArgs(argv: readonly string[], valued: ReadonlySet<string> = new Set()): ParsedArgs {
  const positional: string[] = [];
  const flags: Record<string, string | boolean> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('--') || arg.length === 2) {
      positional.push(arg);
      continue;
    }
    const body = arg.slice(2);
    const eq = body.indexOf('=');
    if (eq >= 0) {
      flags[body.slice(0, eq)] = body.slice(eq + 1);
    } else if (valued.has(body) && i + 1 < argv.length && !(argv[i + 1] as string).startsWith('--')) {
      flags[body] = argv[++i] as string;
    } else if (body.startsWith('no-') && !valued.has(body)) {
      flags[body.slice(3)] = false;
    } else {
      flags[body] = true;
    }
  }
  return { positional, flags };
}

/**
 * Parses `argv` for a command and refuses flags it does not know or flags missing their value. A
 * command that takes `--format` also takes `--json`, as `--format=json` (older commands had only it).
 */
export function parseCommandArgs(argv: readonly string[], spec: FlagSpec): ParsedArgs {
  const valued = new Set(Object.keys(spec).filter((name) => spec[name] === 'string'));
  const parsed = parseArgs(argv, valued);
  if (spec.format === 'string' && !spec.json && parsed.flags.json !== undefined) {
    if (parsed.flags.json !== true) throw new CliError('--json takes no value (it means --format=json)');
    if (parsed.flags.format !== undefined && parsed.flags.format !== 'json') throw new CliError(`--json contradicts --format=${String(parsed.flags.format)}`);
    delete parsed.flags.json;
    parsed.flags.format = 'json';
  }
  for (const [name, value] of Object.entries(parsed.flags)) {
    const kind = spec[name];
    if (!kind) throw new CliError(`unknown --${name} parameter${didYouMean(name, Object.keys(spec))}`);
    if (kind === 'string' && typeof value !== 'string') throw new CliError(`--${name} needs a value (--${name}=<value>)`);
  }
  return parsed;
}

/** ` (did you mean --x?)` for the known flag nearest a mistyped one (at most two edits away), else ''. */
function didYouMean(name: string, known: readonly string[]): string {
  let best: string | null = null;
  let bestDistance = 3;
  for (const candidate of known) {
    const distance = editDistance(name, candidate);
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best === null ? '' : ` (did you mean --${best}?)`;
}

/** Levenshtein distance: the fewest single-character insertions, deletions and substitutions. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length] as number;
}

/** A string flag's value, or `fallback` when it was not given. */
export function stringFlag(args: ParsedArgs, name: string, fallback?: string): string | undefined {
  const value = args.flags[name];
  return typeof value === 'string' ? value : fallback;
}

/** Checks that a flag holds one of the allowed values. */
export function choiceFlag<T extends string>(args: ParsedArgs, name: string, allowed: readonly T[], fallback: T): T {
  const value = stringFlag(args, name, fallback) as string;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new CliError(`Invalid value for --${name}: '${value}' (expected ${allowed.map((a) => `'${a}'`).join(', ')})`);
  }
  return value as T;
}

/** A yes-or-no setting, from a boolean flag or an environment variable (`1`, `true`, `yes`; `0`, `false`, `no` or empty). */
export function booleanSetting(name: string, value: string | boolean | undefined): boolean {
  if (typeof value === 'boolean') return value;
  const text = (value ?? '').trim().toLowerCase();
  if (['1', 'true', 'yes'].includes(text)) return true;
  if (['', '0', 'false', 'no'].includes(text)) return false;
  throw new CliError(`${name} must be 1 or 0, got "${value}"`);
}
