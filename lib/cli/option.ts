/**
 * `understudy option get|add|update|delete|patch`: WP-CLI's `wp option` over the configured site.
 * Values are stored as WordPress stores them (arrays PHP-serialized, via the option store), so what
 * this writes is what a PHP `get_option()` reads back.
 */
import { OptionStore } from '../wp/options';
import { PhpArray, PhpValue, maybeSerialize } from '../wp/php';
import { loadSiteConfig } from '../wp/config';
import { CliError, ParsedArgs, choiceFlag, parseCommandArgs } from './args';
import { CliContext, line, readStdin, success, withSite } from './context';
import { isContainer, phpJson, phpText, readableJson } from './format';
import { decodeJsonValue } from './json-value';
import { patchValue } from './patch';
import { Subcommand, runSubcommand } from './subcommands';

export const OPTION_HELP = `usage: understudy option <subcommand> [<args>]

Subcommands:
  get <name> [--format=json]
      Prints an option's value (arrays as JSON).
  add <name> [<value>] [--format=plaintext|json] [--autoload=yes|no]
      Adds an option; fails when it exists.
  update <name> [<value>] [--format=plaintext|json]
      Sets an option, creating it when missing. With --format=json the value is JSON,
      so arrays can be stored (as PHP-serialized arrays).
  delete <name>...
      Deletes one or more options.
  patch insert|update|delete <name> <key-path>... [<value>] [--format=plaintext|json]
      Changes one nested key of an array option. 'insert' sets a key, creating it (and the
      option, as an empty array) when missing; 'update' changes a key that exists; 'delete'
      removes one. A value left off the command line is read from STDIN.
`;

const SUBCOMMANDS: Record<string, Subcommand> = { get, add, update, delete: remove, patch };

/** Runs `option <subcommand> ...`; returns the exit status. */
export function optionCommand(ctx: CliContext, argv: string[]): Promise<number> {
  return runSubcommand(ctx, argv, { name: 'option', help: OPTION_HELP, subcommands: SUBCOMMANDS });
}

async function get(ctx: CliContext, argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, { format: 'string' });
  const format = choiceFlag(args, 'format', ['plaintext', 'json'], 'plaintext');
  const [name] = exactly(args, 1, 'option get <name> [--format=json]');
  return withSite(ctx, loadSiteConfig(ctx.env, ctx.cwd), async ({ site }) => {
    const value = await site.options.get(name);
    // WP: get_option() answers false for a missing option, so WP-CLI cannot tell a stored false apart either.
    if (value === undefined || value === false) throw new CliError(`Could not get '${name}' option. Does it exist?`);
    const stored = value as PhpValue;
    line(ctx, format === 'json' ? phpJson(stored) : isContainer(stored) ? readableJson(stored) : phpText(stored));
    return 0;
  });
}

async function add(ctx: CliContext, argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, { format: 'string', autoload: 'string' });
  const autoload = choiceFlag(args, 'autoload', ['yes', 'no'], 'yes');
  const [name, raw] = between(args, 1, 2, 'option add <name> [<value>] [--format=plaintext|json] [--autoload=yes|no]');
  const value = await valueOf(ctx, args, raw, 'add');
  return withSite(ctx, loadSiteConfig(ctx.env, ctx.cwd), async ({ site }) => {
    if ((await site.options.getRaw(name)) !== undefined) throw new CliError(`Could not add option '${name}'. Does it already exist?`);
    await site.options.add(name, value, autoload);
    success(ctx, `Added '${name}' option.`);
    return 0;
  });
}

async function update(ctx: CliContext, argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, { format: 'string' });
  const [name, raw] = between(args, 1, 2, 'option update <name> [<value>] [--format=plaintext|json]');
  const value = await valueOf(ctx, args, raw, 'update');
  return withSite(ctx, loadSiteConfig(ctx.env, ctx.cwd), async ({ site }) => {
    await store(ctx, site.options, name, await site.options.get(name), value);
    return 0;
  });
}

async function remove(ctx: CliContext, argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, {});
  if (!args.positional.length) throw new CliError('Too few arguments. Usage: understudy option delete <name>...');
  return withSite(ctx, loadSiteConfig(ctx.env, ctx.cwd), async ({ site }) => {
    let status = 0;
    for (const name of args.positional) {
      if (await site.options.delete(name)) {
        success(ctx, `Deleted '${name}' option.`);
      } else {
        ctx.stderr.write(`Error: Could not delete '${name}' option. Does it exist?\n`);
        status = 1;
      }
    }
    return status;
  });
}

async function patch(ctx: CliContext, argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, { format: 'string' });
  const [action, name, ...rest] = args.positional;
  if (action !== 'insert' && action !== 'update' && action !== 'delete') {
    throw new CliError(`Invalid patch action '${action ?? ''}'. Usage: understudy option patch insert|update|delete <name> <key-path>... [<value>]`);
  }
  if (name === undefined || !rest.length) throw new CliError(`Too few arguments. Usage: understudy option patch ${action} <name> <key-path>...${action === 'delete' ? '' : ' [<value>]'}`);
  let keyPath = rest;
  let value: PhpValue = null;
  if (action !== 'delete') {
    // The last argument is the value unless it is the only one; then the value comes from STDIN.
    const raw = rest.length > 1 ? rest[rest.length - 1] : await readStdin(ctx);
    if (raw === undefined || raw === '') throw new CliError(`Please provide value to ${action}.`);
    if (rest.length > 1) keyPath = rest.slice(0, -1);
    value = parseValue(args, raw);
  }
  return withSite(ctx, loadSiteConfig(ctx.env, ctx.cwd), async ({ site }) => {
    const current = (await site.options.get(name)) as PhpValue | undefined;
    if (current === undefined && action !== 'insert') throw new CliError(`Could not get '${name}' option. Does it exist?`);
    // CASE: insert into a missing option starts from an empty array (WP-CLI would refuse: it has no array to patch).
    const patched = patchValue(current === undefined ? new PhpArray() : current, keyPath, action, value);
    await store(ctx, site.options, name, current, patched);
    return 0;
  });
}

/** WP: update_option() and WP-CLI's report: nothing is written when the serialized value is the same. */
async function store(ctx: CliContext, options: OptionStore, name: string, old: unknown, value: PhpValue): Promise<void> {
  if (old !== undefined && maybeSerialize(old) === maybeSerialize(value)) {
    success(ctx, `Value passed for '${name}' option is unchanged.`);
    return;
  }
  await options.update(name, value);
  success(ctx, `Updated '${name}' option.`);
}

/** The value from the command line or, when left off, STDIN; parsed as JSON with --format=json. */
async function valueOf(ctx: CliContext, args: ParsedArgs, raw: string | undefined, verb: string): Promise<PhpValue> {
  const text = raw ?? (await readStdin(ctx));
  if (text === undefined) throw new CliError(`Please provide value to ${verb}.`);
  return parseValue(args, text);
}

function parseValue(args: ParsedArgs, text: string): PhpValue {
  const format = choiceFlag(args, 'format', ['plaintext', 'json'], 'plaintext');
  return format === 'json' ? decodeJsonValue(text) : text;
}

/** The positional arguments when there are exactly `count` of them. */
function exactly(args: ParsedArgs, count: number, usage: string): [string, string | undefined] {
  return between(args, count, count, usage);
}

function between(args: ParsedArgs, min: number, max: number, usage: string): [string, string | undefined] {
  const { positional } = args;
  if (positional.length < min) throw new CliError(`Too few arguments. Usage: understudy ${usage}`);
  if (positional.length > max) throw new CliError(`Too many arguments. Usage: understudy ${usage}`);
  return [positional[0] as string, positional[1]];
}
