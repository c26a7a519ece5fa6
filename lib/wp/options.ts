/**
 * WP: get_option()/update_option()/add_option()/delete_option() and their site-option twins,
 * over the shared `options` table. Autoloaded options are read in one query and, like everything
 * else read from WordPress's tables, cached for at most FRESHNESS_MS so a change made by PHP shows up
 * within the 2-second bound. Values are PHP-serialized where WordPress serializes them.
 */
import { ChangeFeed } from './change-feed';
import { WordPressChanges } from './changes';
import { Database } from './db/database';
import { insertUnlessTaken } from './db/transaction';
import { FreshCache } from './fresh-cache';
import { PhpValue, PlainValue, maybeSerialize, maybeUnserialize, toPlain } from './php';

/** Autoload values that WordPress loads at start-up (`wp_autoload_values_to_autoload`). */
const AUTOLOADED = ['yes', 'on', 'auto-on', 'auto'];

/** A stored value with its decoded forms, decoded once per cache entry. Callers must not mutate them. */
class StoredValue {
  private decoded?: { value: PhpValue | string };
  private plainForm?: { value: PlainValue };
  constructor(readonly raw: string) {}
  /** As PHP holds it (PhpArray keeps key types and order). */
  get value(): PhpValue | string {
    this.decoded ??= { value: maybeUnserialize(this.raw) };
    return this.decoded.value;
  }
  /** As plain JSON-like data: arrays that are not lists become objects. */
  get plain(): PlainValue {
    this.plainForm ??= { value: toPlain(this.value) };
    return this.plainForm.value;
  }
}

/**
 * On a network: the id of the network whose options get_site_option() reads and writes (the blog's
 * `site_id` in `{prefix}blogs`). Absent on a single site, where site options are the site's options.
 */
export type NetworkIdOf = () => Promise<number>;

export class OptionStore {
  private readonly autoloaded: FreshCache<'all', Map<string, StoredValue>>;
  private readonly single: FreshCache<string, StoredValue | null>;
  /** The network's options by `{network id}:{name}`: read on every signed-in request of a network site (site_admins, using_application_passwords). */
  private readonly network: FreshCache<string, StoredValue | null>;

  /** `changes`: the site's feed, told of each option written (WordPress caches them one by one and in `alloptions`); absent only for the demo seed's writes. */
  constructor(private readonly db: Database, private readonly networkId?: NetworkIdOf, private readonly changes?: ChangeFeed) {
    this.autoloaded = new FreshCache(undefined, undefined, 'options');
    this.single = new FreshCache(undefined, undefined, 'options');
    this.network = new FreshCache(undefined, undefined, 'options');
  }

  /** WP: get_option(): the decoded value, or `fallback` when the option does not exist. */
  async get<T = unknown>(name: string, fallback?: T): Promise<unknown | T> {
    const stored = await this.stored(name);
    return stored ? stored.value : fallback;
  }

  /** Like get(), as plain JSON-like data (what most callers want: objects, not PhpArray). */
  async getPlain<T = unknown>(name: string, fallback?: T): Promise<PlainValue | T | undefined> {
    const stored = await this.stored(name);
    return stored ? stored.plain : fallback;
  }

  /** The option as stored in the row (serialized text), or undefined. */
  async getRaw(name: string): Promise<string | undefined> {
    return (await this.stored(name))?.raw;
  }

  /** WP: update_option(): creates the option when missing, and leaves alone one that already holds this value. */
  async update(name: string, value: unknown, autoload = 'yes'): Promise<void> {
    const { knex, tables } = this.db;
    const raw = maybeSerialize(value);
    const stored = await knex(tables.options).where({ option_name: name }).first('option_value');
    if (stored && String(stored.option_value) === raw) return;
    const changed = await knex(tables.options).where({ option_name: name }).update({ option_value: raw });
    if (!changed) {
      await knex(tables.options)
        .insert({ option_name: name, option_value: raw, autoload })
        .onConflict('option_name')
        .merge(['option_value']);
    }
    await this.written(name);
  }

  /** WP: add_option(): does nothing when the option already exists. */
  async add(name: string, value: unknown, autoload = 'yes'): Promise<void> {
    const { knex, tables } = this.db;
    const row = { option_name: name, option_value: maybeSerialize(value), autoload };
    if (await insertUnlessTaken(knex, tables.options, row, ['option_name'])) await this.written(name);
  }

  /** WP: delete_option(): true when a row was removed. */
  async delete(name: string): Promise<boolean> {
    const { knex, tables } = this.db;
    const removed = await knex(tables.options).where({ option_name: name }).del();
    if (removed > 0) await this.written(name);
    return removed > 0;
  }

  /** WP: get_site_option(): the sitemeta of the site's network on multisite, the site's options otherwise; undefined when missing. */
  async getSiteOption(name: string): Promise<unknown> {
    if (!this.networkId) return this.get(name);
    const siteId = await this.networkId();
    const stored = await this.network.get(`${siteId}:${name}`, async () => {
      const row = await this.db.knex(this.db.tables.sitemeta).where({ site_id: siteId, meta_key: name }).first('meta_value');
      return row ? new StoredValue(String(row.meta_value)) : null;
    });
    return stored?.value;
  }

  /** WP: add_site_option(): into the site's network; does nothing when that network has the option. */
  async addSiteOption(name: string, value: string): Promise<void> {
    if (!this.networkId) return this.add(name, value, 'no');
    const siteId = await this.networkId();
    const { knex, tables } = this.db;
    const exists = await knex(tables.sitemeta).where({ site_id: siteId, meta_key: name }).first('meta_id');
    if (!exists) await knex(tables.sitemeta).insert({ site_id: siteId, meta_key: name, meta_value: maybeSerialize(value) });
    this.network.invalidate(`${siteId}:${name}`);
  }

  /** Forgets everything cached, after rows were written through another store (e.g. a transaction's). */
  forgetAll(): void {
    this.autoloaded.invalidate();
    this.single.invalidate();
    this.network.invalidate();
  }

  private async stored(name: string): Promise<StoredValue | undefined> {
    const all = await this.autoloaded.get('all', () => this.loadAutoloaded());
    const hit = all.get(name);
    if (hit) return hit;
    return (await this.single.get(name, () => this.loadOne(name))) ?? undefined;
  }

  private async loadAutoloaded(): Promise<Map<string, StoredValue>> {
    const rows = await this.db.knex(this.db.tables.options)
      .whereIn('autoload', AUTOLOADED)
      .select('option_name', 'option_value');
    return new Map(rows.map((r: { option_name: string; option_value: string }) => [r.option_name, new StoredValue(String(r.option_value))]));
  }

  private async loadOne(name: string): Promise<StoredValue | null> {
    const row = await this.db.knex(this.db.tables.options).where({ option_name: name }).first('option_value');
    return row ? new StoredValue(String(row.option_value)) : null;
  }

  /** After a committed write of the option: forgets it here and tells the site's feed. */
  private async written(name: string): Promise<void> {
    this.forget(name);
    await this.changes?.publish(new WordPressChanges().option(name));
  }

  private forget(name: string): void {
    this.autoloaded.invalidate();
    this.single.invalidate(name);
  }
}
