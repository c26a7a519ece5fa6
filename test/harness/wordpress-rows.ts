/**
 * The rows of the tables WordPress keeps in its object cache (posts, postmeta, options, users,
 * usermeta), read whole before and after a write, and what their difference says the write changed,
 * in the same plain shape as what the write reported (a WordPressChanges): the honest check that a
 * write names every row it changed, and none it did not.
 */
import { WordPressChanges } from '../../lib/wp/changes';
import { Site } from '../../lib/wp/site';

type Row = Record<string, unknown>;

export interface CachedRows {
  posts: Map<string, Row>;
  postmeta: Map<string, Row>;
  options: Map<string, Row>;
  users: Map<string, Row>;
  usermeta: Map<string, Row>;
}

/** What a write changed, as sorted lines: easy to compare and to read in a failed assertion. */
export interface PlainChanges {
  posts: string[];
  postMeta: string[];
  options: string[];
  users: string[];
  userMeta: string[];
}

export async function cachedRows(site: Site): Promise<CachedRows> {
  const { knex, tables } = site.db;
  const byKey = async (table: string, key: string) => new Map<string, Row>(
    (await knex(table).select('*')).map((row: Row) => [String(row[key]), row]),
  );
  return {
    posts: await byKey(tables.posts, 'ID'),
    postmeta: await byKey(tables.postmeta, 'meta_id'),
    options: await byKey(tables.options, 'option_name'),
    users: await byKey(tables.users, 'ID'),
    usermeta: await byKey(tables.usermeta, 'umeta_id'),
  };
}

/** The rows that differ, each as it was and as it is (undefined where it did not exist). */
function differing(before: Map<string, Row>, after: Map<string, Row>): Array<[Row | undefined, Row | undefined]> {
  const out: Array<[Row | undefined, Row | undefined]> = [];
  for (const key of new Set([...before.keys(), ...after.keys()])) {
    const was = before.get(key);
    const is = after.get(key);
    if (JSON.stringify(was) !== JSON.stringify(is)) out.push([was, is]);
  }
  return out;
}

/** What the rows say changed between two reads. */
export function changedBetween(before: CachedRows, after: CachedRows): PlainChanges {
  const changes = new WordPressChanges();
  for (const [was, is] of differing(before.posts, after.posts)) {
    const row = (is ?? was) as Row;
    changes.post(Number(row.ID), String(row.post_type), Number(row.post_parent));
  }
  for (const [was, is] of differing(before.postmeta, after.postmeta)) {
    for (const row of [was, is]) if (row) changes.postMetaKey(Number(row.post_id), String(row.meta_key));
  }
  for (const [was, is] of differing(before.options, after.options)) changes.option(String((is ?? was)?.option_name));
  for (const [was, is] of differing(before.users, after.users)) {
    for (const row of [was, is]) {
      if (row) changes.user(Number(row.ID), { login: String(row.user_login), email: String(row.user_email), nicename: String(row.user_nicename) });
    }
  }
  for (const [was, is] of differing(before.usermeta, after.usermeta)) {
    for (const row of [was, is]) if (row) changes.userMetaKey(Number(row.user_id), String(row.meta_key));
  }
  return plainChanges(changes);
}

/** A record in the plain shape (terms and comments aside: their tables are not read here). */
export function plainChanges(c: WordPressChanges): PlainChanges {
  const sorted = (lines: Iterable<string>) => [...lines].sort();
  return {
    posts: sorted([...c.posts.values()].map((p) => `${p.id} ${p.type} parent=${p.parent}`)),
    postMeta: sorted([...c.postMeta].flatMap(([id, keys]) => [...keys].map((k) => `${id} ${k}`))),
    options: sorted(c.options),
    users: sorted([...c.users.values()].map((u) => `${u.id} logins=${sorted(u.logins)} emails=${sorted(u.emails)} nicenames=${sorted(u.nicenames)}`)),
    userMeta: sorted([...c.userMeta].flatMap(([id, keys]) => [...keys].map((k) => `${id} ${k}`))),
  };
}

/**
 * Runs `write` with a listener on the site's feed; returns what the listener was told by the time the
 * write returned, what the rows say changed, and the write's result.
 */
export async function reportedAndChanged<T>(site: Site, write: () => Promise<T>): Promise<{ reported: PlainChanges; changed: PlainChanges; result: T }> {
  const heard = new WordPressChanges();
  const before = await cachedRows(site);
  const stop = site.changes.subscribe((changes) => { heard.merge(changes); });
  let result: T;
  try {
    result = await write();
  } finally {
    stop();
  }
  // Copied now: anything published after the write returned would be too late for the answer.
  const reported = plainChanges(heard);
  return { reported, changed: changedBetween(before, await cachedRows(site)), result };
}
