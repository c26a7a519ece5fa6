/**
 * `understudy user list`: WP-CLI's `wp user list` over the configured site: the users of this site,
 * ordered by login, with their roles resolved from the site's `{prefix}capabilities` usermeta.
 * `understudy user create`: WP-CLI's `wp user create`, writing the rows wp_insert_user() writes.
 */
import { loadSiteConfig } from '../wp/config';
import { isEmail } from '../wp/formatting/formats';
import { Site } from '../wp/site';
import { phpJsonEncode } from '../wp/php/json';
import { UserInsertError, generatePassword, insertUser } from '../wp/user-insert';
import { CliError, choiceFlag, parseCommandArgs, stringFlag } from './args';
import { CliContext, line, success, withSite } from './context';
import { Row, asciiTable, csvLines } from './format';

export const USER_HELP = `usage: understudy user <subcommand> [<args>]

Subcommands:
  list [--format=table|json|csv|ids|count] [--fields=<a,b,...>] [--field=<field>] [--role=<role>]
      Lists the site's users, ordered by login. Default fields: ID, user_login, display_name, user_email, user_registered, roles.
      Other fields: user_nicename, user_url.
  create <user-login> <user-email> [--role=<role>] [--user_pass=<password>] [--display_name=<name>]
         [--first_name=<name>] [--last_name=<name>] [--porcelain] [--format=table|json]
      Creates a user as WordPress does (the users row, wp_insert_user()'s usermeta, the role and its
      user_level) and prints "Success: Created user <ID>.". Without --user_pass a 24-character
      password is generated and printed once ("Password: …"). --role defaults to the site's
      default_role option. --porcelain prints only the ID; --format=json prints
      {"ID", "user_login", "user_email", "role", "user_pass"} (user_pass only when generated).
`;

const DEFAULT_FIELDS = ['ID', 'user_login', 'display_name', 'user_email', 'user_registered', 'roles'];
const ALL_FIELDS = [...DEFAULT_FIELDS, 'user_nicename', 'user_url'];
const FORMATS = ['table', 'json', 'csv', 'ids', 'count'] as const;

/** Runs `user <subcommand> ...`; returns the exit status. */
export async function userCommand(ctx: CliContext, argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    ctx.stdout.write(USER_HELP);
    return 0;
  }
  if (name === 'create') return create(ctx, rest);
  if (name !== 'list') throw new CliError(`'${name}' is not a registered subcommand of 'user'. See 'understudy user --help' for available subcommands.`);
  return list(ctx, rest);
}

const CREATE_USAGE = 'understudy user create <user-login> <user-email> [--role=<role>] [--user_pass=<password>]';

async function create(ctx: CliContext, argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, {
    role: 'string', user_pass: 'string', display_name: 'string', first_name: 'string', last_name: 'string', porcelain: 'boolean', format: 'string',
  });
  if (args.positional.length < 2) throw new CliError(`Too few arguments. Usage: ${CREATE_USAGE}`);
  if (args.positional.length > 2) throw new CliError(`Too many arguments. Usage: ${CREATE_USAGE}`);
  const [login, email] = args.positional as [string, string];
  const format = choiceFlag(args, 'format', ['table', 'json'], 'table');
  // WP-CLI checks the address itself: wp_insert_user() would store any text.
  if (!isEmail(email)) throw new CliError(`The '${email}' email address is invalid.`);
  const given = stringFlag(args, 'user_pass');
  const password = given ?? generatePassword();
  return withSite(ctx, loadSiteConfig(ctx.env, ctx.cwd), async ({ site }) => {
    const role = stringFlag(args, 'role') ?? String(await site.options.get('default_role', 'subscriber'));
    if (!(role in (await site.capabilities.roles()))) throw new CliError(`Role doesn't exist: ${role}`);
    let id: number;
    try {
      id = await insertUser(site, {
        login, email, role, firstName: stringFlag(args, 'first_name'), lastName: stringFlag(args, 'last_name'), displayName: stringFlag(args, 'display_name'),
      }, password);
    } catch (err) {
      if (err instanceof UserInsertError) throw new CliError(err.message);
      throw err;
    }
    const created = (await site.users.byId(id))!;
    if (args.flags.porcelain === true) line(ctx, String(id));
    else if (format === 'json') {
      line(ctx, phpJsonEncode({ ID: id, user_login: created.user_login, user_email: created.user_email, role, ...(given === undefined ? { user_pass: password } : {}) }));
    } else {
      success(ctx, `Created user ${id}.`);
      if (given === undefined) line(ctx, `Password: ${password}`);
    }
    return 0;
  });
}

async function list(ctx: CliContext, argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, { format: 'string', fields: 'string', field: 'string', role: 'string' });
  if (args.positional.length) throw new CliError('Too many arguments. Usage: understudy user list [--format=<format>] [--fields=<fields>]');
  const format = choiceFlag(args, 'format', FORMATS, 'table');
  const single = stringFlag(args, 'field');
  const fields = single !== undefined ? [single] : (stringFlag(args, 'fields')?.split(',').map((f) => f.trim()).filter(Boolean) ?? DEFAULT_FIELDS);
  for (const field of fields) if (!ALL_FIELDS.includes(field)) throw new CliError(`Invalid field: ${field}.`);
  return withSite(ctx, loadSiteConfig(ctx.env, ctx.cwd), async ({ site }) => {
    const rows = await userRows(site, stringFlag(args, 'role'));
    if (format === 'count') line(ctx, String(rows.length));
    else if (format === 'ids') line(ctx, rows.map((row) => row.ID).join(' '));
    else if (single !== undefined && format !== 'json') for (const row of rows) line(ctx, String(row[single]));
    else if (format === 'json') line(ctx, phpJsonEncode(single !== undefined ? rows.map((row) => row[single]) : rows.map((row) => pick(row, fields))));
    else if (format === 'csv') for (const text of csvLines(fields, rows)) line(ctx, text);
    else for (const text of asciiTable(fields, rows)) line(ctx, text);
    return 0;
  });
}

/**
 * One row per user of this site. WP: WP_User_Query only filters by the capabilities key on a multisite
 * network (a user belongs to a site there by having a role on it); a single site lists every user.
 */
async function userRows(site: Site, role: string | undefined): Promise<Row[]> {
  const rows: Row[] = [];
  const capabilitiesKey = site.db.tables.capabilitiesKey;
  for (const user of await site.users.list()) {
    if (site.config.multisite && !user.meta.has(capabilitiesKey)) continue;
    const caps = await site.capabilities.forUser(user);
    if (role !== undefined && !caps.roles.includes(role)) continue;
    rows.push({
      ID: user.ID,
      user_login: user.user_login,
      display_name: user.display_name,
      user_email: user.user_email,
      user_registered: user.user_registered,
      roles: caps.roles.join(','),
      user_nicename: user.user_nicename,
      user_url: user.user_url,
    });
  }
  return rows;
}

function pick(row: Row, fields: readonly string[]): Row {
  const out: Row = {};
  for (const field of fields) out[field] = row[field] as string | number;
  return out;
}
