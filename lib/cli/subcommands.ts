/**
 * `understudy <command> <subcommand> ...` dispatched as WP-CLI dispatches: without a subcommand the
 * command's help, an unknown one a command-line error naming it, and a refusal of the domain (a
 * change the user has to fix, `refusal`) reported as a command-line error rather than a failure.
 */
import { CliError } from './args';
import { CliContext } from './context';

export type Subcommand = (ctx: CliContext, argv: string[]) => Promise<number>;

export interface CommandGroup {
  name: string;
  help: string;
  subcommands: Record<string, Subcommand>;
  /** The domain's error for a refused change, if it has one. */
  refusal?: new (...args: never[]) => Error;
}

/** Runs the subcommand `argv` names; returns the exit status. */
export async function runSubcommand(ctx: CliContext, argv: string[], group: CommandGroup): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    ctx.stdout.write(group.help);
    return 0;
  }
  const run = Object.hasOwn(group.subcommands, name) ? group.subcommands[name] : undefined;
  if (!run) {
    throw new CliError(`'${name}' is not a registered subcommand of '${group.name}'. See 'understudy ${group.name} --help' for available subcommands.`);
  }
  try {
    return await run(ctx, rest);
  } catch (err) {
    if (group.refusal && err instanceof group.refusal) throw new CliError(err.message);
    throw err;
  }
}
