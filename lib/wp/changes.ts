/**
 * What one committed write changed, in WordPress's own terms: the rows WordPress's cache-cleaning
 * functions would be told about had PHP made the same change (clean_post_cache(), update_metadata(),
 * update_option(), clean_user_cache(), clean_term_cache(), clean_comment_cache()). Whatever caches
 * those rows, in this process or in PHP's persistent object cache, learns them from this one record.
 */

/** A post the write inserted, updated or deleted. */
export interface ChangedPost {
  id: number;
  type: string;
  parent: number;
}

/** A user whose row changed: their cache keys by ID, login, email and nicename (old and new values both). */
export interface ChangedUser {
  id: number;
  logins: string[];
  emails: string[];
  nicenames: string[];
}

export interface WordPressChangesJson {
  posts: ChangedPost[];
  postMeta: Record<string, string[]>;
  options: string[];
  users: ChangedUser[];
  userMeta: Record<string, string[]>;
  terms: number[];
  comments: number[];
}

export class WordPressChanges {
  readonly posts = new Map<number, ChangedPost>();
  /** Post ID → the meta keys added, updated or deleted on it. */
  readonly postMeta = new Map<number, Set<string>>();
  readonly options = new Set<string>();
  readonly users = new Map<number, ChangedUser>();
  /** User ID → the meta keys added, updated or deleted on them. */
  readonly userMeta = new Map<number, Set<string>>();
  readonly terms = new Set<number>();
  readonly comments = new Set<number>();

  post(id: number, type: string, parent = 0): this {
    this.posts.set(id, { id, type, parent });
    return this;
  }

  postMetaKey(postId: number, key: string): this {
    addTo(this.postMeta, postId, key);
    return this;
  }

  option(name: string): this {
    this.options.add(name);
    return this;
  }

  /** A user's row; call again with the old login, email or nicename when the write changed one. */
  user(id: number, keys: { login?: string; email?: string; nicename?: string }): this {
    return this.addUser({ id, logins: [keys.login ?? ''], emails: [keys.email ?? ''], nicenames: [keys.nicename ?? ''] });
  }

  userMetaKey(userId: number, key: string): this {
    addTo(this.userMeta, userId, key);
    return this;
  }

  term(id: number): this {
    this.terms.add(id);
    return this;
  }

  comment(id: number): this {
    this.comments.add(id);
    return this;
  }

  /** Adds what another record holds (several writes answered as one). */
  merge(other: WordPressChanges): this {
    for (const p of other.posts.values()) this.post(p.id, p.type, p.parent);
    for (const [id, keys] of other.postMeta) for (const k of keys) this.postMetaKey(id, k);
    for (const name of other.options) this.option(name);
    for (const u of other.users.values()) this.addUser(u);
    for (const [id, keys] of other.userMeta) for (const k of keys) this.userMetaKey(id, k);
    for (const id of other.terms) this.term(id);
    for (const id of other.comments) this.comment(id);
    return this;
  }

  /** As plain JSON (maps keyed by ID become objects): the PHP companion's body and a retry job's payload. */
  toJSON(): WordPressChangesJson {
    const byId = (map: Map<number, Set<string>>) => Object.fromEntries([...map].map(([id, keys]) => [String(id), [...keys]]));
    return {
      posts: [...this.posts.values()], postMeta: byId(this.postMeta), options: [...this.options], users: [...this.users.values()],
      userMeta: byId(this.userMeta), terms: [...this.terms], comments: [...this.comments],
    };
  }

  static fromJSON(json: WordPressChangesJson): WordPressChanges {
    const changes = new WordPressChanges();
    for (const p of json.posts) changes.post(p.id, p.type, p.parent);
    for (const [id, keys] of Object.entries(json.postMeta)) for (const k of keys) changes.postMetaKey(Number(id), k);
    for (const name of json.options) changes.option(name);
    for (const u of json.users) changes.addUser(u);
    for (const [id, keys] of Object.entries(json.userMeta)) for (const k of keys) changes.userMetaKey(Number(id), k);
    for (const id of json.terms) changes.term(id);
    for (const id of json.comments) changes.comment(id);
    return changes;
  }

  /** Adds a user's keys to what the record holds of them (empty values are no keys). */
  private addUser(user: ChangedUser): this {
    const known = this.users.get(user.id) ?? { id: user.id, logins: [], emails: [], nicenames: [] };
    for (const v of user.logins) pushNew(known.logins, v);
    for (const v of user.emails) pushNew(known.emails, v);
    for (const v of user.nicenames) pushNew(known.nicenames, v);
    this.users.set(user.id, known);
    return this;
  }

  get empty(): boolean {
    return !this.posts.size && !this.postMeta.size && !this.options.size && !this.users.size
      && !this.userMeta.size && !this.terms.size && !this.comments.size;
  }
}

function addTo(map: Map<number, Set<string>>, id: number, key: string): void {
  const keys = map.get(id) ?? new Set<string>();
  keys.add(key);
  map.set(id, keys);
}

function pushNew(list: string[], value: string): void {
  if (value !== '' && !list.includes(value)) list.push(value);
}
