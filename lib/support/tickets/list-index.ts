/**
 * Every ticket's list fields in memory, newest activity first (docs/performance.md "The ticket
 * list"): what a list filters and sorts on, and nothing else, in typed columns (one slot a ticket,
 * about 40 bytes; strings as codes into one table). Pages are cut from it and their tickets read by
 * ID. Pure data: ./list-live.ts keeps it in step with the database. The filters mean exactly what
 * ./list-query.ts means in SQL.
 */
import { ownershipEmailKey, storedEmailKey } from './customer-email';
import { TicketFilter } from './list-query';
import { TICKET_POST_STATUSES, postStatusOf } from './rows';
import { SlotTable } from './slot-table';
import { Ticket, TicketPriority } from './types';

/** A ticket's list fields as read: from a ticket (./store.ts) or from the lean first load. */
export interface ListFields {
  id: number;
  postStatus: string;
  /** `post_modified`, `YYYY-MM-DD HH:MM:SS`. */
  modified: string;
  author: number;
  priority: TicketPriority;
  assignee: number | null;
  email: string;
  siteId: string | null;
}

export function listFieldsOf(ticket: Ticket, postStatus: string): ListFields {
  return {
    id: ticket.id, postStatus, modified: ticket.updatedAt, author: ticket.customerId, priority: ticket.priority,
    assignee: ticket.assigneeId, email: ticket.customerEmail, siteId: ticket.siteId,
  };
}

/** Above this many changed tickets an update sorts everything once instead of moving each. */
const BULK_CHANGES = 2000;

/** Filters whose matches are kept (agents' views and customers' own lists), and the IDs they may hold together. */
const MEMO_LIMIT = 256;
const MEMO_IDS = 1_000_000;
/** Above this many changed tickets kept matches are read again when next asked for, not patched. */
const PATCH_LIMIT = 64;

/** The code of "none" in the string columns (no address, no site). */
const NONE = -1;
/** What a filter looks for when no ticket holds its value: matches no slot (not even NONE). */
const ABSENT = -2;

/**
 * A filter's matches, kept until the tickets change. An agent's filter, a scan of every ticket, is
 * patched by a small change (each changed ticket taken out, and put back in place if it still
 * matches); a customer's, a handful of slots, is simply read again.
 */
interface KeptMatches {
  ids: Int32Array;
  test: (slot: number) => boolean;
  patchable: boolean;
  /** How many codes existed when the test was made: a newer one may be a value it took for absent. */
  codes: number;
}

/** One ticket's fields as the columns hold them. */
interface Row {
  id: number;
  activity: number;
  status: number;
  priority: number;
  author: number;
  assignee: number;
  email: number;
  site: number;
}

/** The columns, grown by doubling. */
class Columns {
  id = new Int32Array(0);
  activity = new Float64Array(0);
  status = new Int32Array(0);
  priority = new Int32Array(0);
  author = new Int32Array(0);
  assignee = new Int32Array(0);
  email = new Int32Array(0);
  site = new Int32Array(0);
  /** The slots of one address, a list through the slots (no array an address): the next and previous slot, or -1. */
  nextOfEmail = new Int32Array(0);
  previousOfEmail = new Int32Array(0);

  get capacity(): number {
    return this.id.length;
  }

  grow(): void {
    const size = Math.max(1024, this.capacity * 2);
    const grown = <T extends Int32Array | Float64Array>(old: T, make: (n: number) => T): T => {
      const next = make(size);
      next.set(old);
      return next;
    };
    this.id = grown(this.id, (n) => new Int32Array(n));
    this.activity = grown(this.activity, (n) => new Float64Array(n));
    for (const name of ['status', 'priority', 'author', 'assignee', 'email', 'site', 'nextOfEmail', 'previousOfEmail'] as const) this[name] = grown(this[name], (n) => new Int32Array(n));
  }

  read(slot: number): Row {
    return {
      id: this.id[slot] as number, activity: this.activity[slot] as number, status: this.status[slot] as number, priority: this.priority[slot] as number,
      author: this.author[slot] as number, assignee: this.assignee[slot] as number, email: this.email[slot] as number, site: this.site[slot] as number,
    };
  }

  write(slot: number, row: Row): void {
    this.id[slot] = row.id;
    this.activity[slot] = row.activity;
    this.status[slot] = row.status;
    this.priority[slot] = row.priority;
    this.author[slot] = row.author;
    this.assignee[slot] = row.assignee;
    this.email[slot] = row.email;
    this.site[slot] = row.site;
  }
}

export class TicketListIndex {
  private readonly columns = new Columns();
  private readonly slotOf = new SlotTable((slot) => this.columns.id[slot] as number);
  private readonly freeSlots: number[] = [];
  /** Slots newest activity first, then highest ID (the SQL list's ORDER BY); the first `size` are live. */
  private sorted = new Int32Array(0);
  private readonly byAuthor = new Map<number, number[]>();
  /** By address code: its first slot (the others follow through Columns.nextOfEmail), or -1. */
  private firstOfEmail = new Int32Array(0);
  /** Statuses, priorities, addresses and site-ids, each kept once and referred to by code. */
  private readonly codes = new Map<string, number>();
  private readonly names: string[] = [];
  private readonly memo = new Map<string, KeptMatches>();
  private memoIds = 0;
  /** Set by a bulk change; the next read sorts once (a first load inserts range by range). */
  private unsorted = false;

  get size(): number {
    return this.slotOf.size;
  }

  /** Each ticket's post status, by ID. */
  statuses(): Map<number, string> {
    const statuses = new Map<number, string>();
    for (const [id, slot] of this.slotOf.entries()) statuses.set(id, this.names[this.columns.status[slot] as number] as string);
    return statuses;
  }

  /** Per post status, how many tickets and the sum of their IDs: what a census of the table is compared with. */
  census(): Map<string, { count: number; idSum: number }> {
    const census = new Map<string, { count: number; idSum: number }>();
    for (const [id, slot] of this.slotOf.entries()) {
      const status = this.names[this.columns.status[slot] as number] as string;
      const counted = census.get(status) ?? { count: 0, idSum: 0 };
      counted.count += 1;
      counted.idSum += id;
      census.set(status, counted);
    }
    return census;
  }

  /** Puts tickets in (new ones, or new states of known ones); a ticket read again unchanged costs nothing. */
  upsert(rows: readonly ListFields[]): void {
    const fresh = rows.map((row) => this.coded(row)).filter((row) => !this.holds(row));
    if (!fresh.length) return;
    // Many changes (a first load, range by range), or a sort already pending: sorted once, when next read.
    // Fewer: each moved into place.
    const bulk = this.unsorted || fresh.length > BULK_CHANGES;
    for (const row of fresh) {
      if (!bulk) this.unsort(this.slotOf.get(row.id));
      this.unlink(row.id);
      const slot = this.link(row);
      if (!bulk) this.insertSorted(slot);
    }
    this.unsorted = bulk;
    if (bulk) this.forgetMatches();
    else this.patchMatches([...new Set(fresh.map((row) => row.id))]);
  }

  /** Takes tickets out (deleted outright). */
  remove(ids: Iterable<number>): void {
    this.sort();
    for (const id of ids) {
      this.unsort(this.slotOf.get(id));
      this.unlink(id);
    }
    this.forgetMatches();
  }

  /** The IDs of every ticket the filter lists (its `search` is for SQL: callers never pass one), in list order. */
  matches(filter: TicketFilter): Int32Array {
    const key = JSON.stringify(filter);
    const kept = this.memo.get(key);
    if (kept) return kept.ids;
    this.sort();
    const test = this.predicate(filter);
    const patchable = filter.viewer.agent;
    const candidates = patchable ? this.sorted.subarray(0, this.size) : this.ownedBy(filter);
    const ids = Int32Array.from(candidates.filter(test), (slot) => this.columns.id[slot] as number);
    this.keepMatches(key, { ids, test, patchable, codes: this.names.length });
    return ids;
  }

  private keepMatches(key: string, kept: KeptMatches): void {
    while (this.memo.size && (this.memo.size >= MEMO_LIMIT || this.memoIds + kept.ids.length > MEMO_IDS)) {
      this.dropMatches(this.memo.keys().next().value as string);
    }
    this.memo.set(key, kept);
    this.memoIds += kept.ids.length;
  }

  private dropMatches(key: string): void {
    this.memoIds -= this.memo.get(key)?.ids.length ?? 0;
    this.memo.delete(key);
  }

  private forgetMatches(): void {
    this.memo.clear();
    this.memoIds = 0;
  }

  /** After a small change (sorted slots in place): each kept agent's filter moves just the changed tickets. */
  private patchMatches(changed: readonly number[]): void {
    for (const [key, kept] of this.memo) {
      if (!kept.patchable || kept.codes !== this.names.length || changed.length > PATCH_LIMIT) {
        this.dropMatches(key);
        continue;
      }
      const ids = this.withMatches(this.without(kept.ids, changed), changed, kept.test);
      this.memoIds += ids.length - kept.ids.length;
      kept.ids = ids;
    }
  }

  /** `ids` without the given tickets (kept arrays are never changed in place: a caller may hold one). */
  private without(ids: Int32Array, changed: readonly number[]): Int32Array {
    const at = changed.map((id) => ids.indexOf(id)).filter((i) => i >= 0).sort((a, b) => a - b);
    if (!at.length) return ids;
    const out = new Int32Array(ids.length - at.length);
    let from = 0;
    let to = 0;
    for (const skip of at) {
      out.set(ids.subarray(from, skip), to);
      to += skip - from;
      from = skip + 1;
    }
    out.set(ids.subarray(from), to);
    return out;
  }

  /** `ids` (in list order) with those of the given tickets that pass `test`, each in its place. */
  private withMatches(ids: Int32Array, changed: readonly number[], test: (slot: number) => boolean): Int32Array {
    const slots = changed.map((id) => this.slotOf.get(id)).filter((slot): slot is number => slot !== undefined && test(slot));
    if (!slots.length) return ids;
    slots.sort((a, b) => this.newestFirst(a, b));
    const out = new Int32Array(ids.length + slots.length);
    let from = 0;
    let to = 0;
    for (const slot of slots) {
      const at = this.position(slot, ids.length, (i) => this.slotOf.get(ids[i] as number) as number);
      out.set(ids.subarray(from, at), to);
      to += at - from;
      out[to++] = this.columns.id[slot] as number;
      from = at;
    }
    out.set(ids.subarray(from), to);
    return out;
  }

  /** A customer's tickets, by author and by email (a handful, not a scan of every ticket), in list order. */
  private ownedBy(filter: TicketFilter): Int32Array {
    const { userId, email } = filter.viewer;
    const emailKey = ownershipEmailKey(email);
    const emailCode = emailKey === null ? undefined : this.codes.get(emailKey);
    const owned = new Set(userId > 0 ? this.byAuthor.get(userId) ?? [] : []);
    if (emailCode !== undefined) for (let slot = this.firstOfEmail[emailCode] ?? -1; slot >= 0; slot = this.columns.nextOfEmail[slot] as number) owned.add(slot);
    return Int32Array.from(owned).sort((a, b) => this.newestFirst(a, b));
  }

  /** The filter as a test of one slot (ownership is narrowed before, by ownedBy()). */
  private predicate(filter: TicketFilter): (slot: number) => boolean {
    const c = this.columns;
    const statuses = new Set((filter.status ? [postStatusOf(filter.status)] : TICKET_POST_STATUSES).map((s) => this.codes.get(s) ?? ABSENT));
    const priority = filter.priority === undefined ? undefined : this.codes.get(filter.priority) ?? ABSENT;
    const site = filter.siteId === undefined ? undefined : this.codes.get(filter.siteId) ?? ABSENT;
    const { assignment, viewer } = filter;
    return (slot) => statuses.has(c.status[slot] as number)
      && (priority === undefined || c.priority[slot] === priority)
      && (assignment !== 'mine' || c.assignee[slot] === viewer.userId)
      && (assignment !== 'unassigned' || c.assignee[slot] === 0)
      && (site === undefined || c.site[slot] === site);
  }

  /** Sorts after a bulk change now (a first load), rather than on the next read. */
  sortNow(): void {
    this.sort();
  }

  private sort(): void {
    if (!this.unsorted) return;
    const live = this.size;
    if (this.sorted.length < this.columns.capacity) this.sorted = new Int32Array(this.columns.capacity);
    let n = 0;
    for (const slot of this.slotOf.slots()) this.sorted[n++] = slot;
    this.sorted.subarray(0, live).sort((a, b) => this.newestFirst(a, b));
    this.unsorted = false;
  }

  private holds(row: Row): boolean {
    const slot = this.slotOf.get(row.id);
    if (slot === undefined) return false;
    const now = this.columns.read(slot);
    return (Object.keys(row) as Array<keyof Row>).every((field) => now[field] === row[field]);
  }

  private link(row: Row): number {
    if (this.size >= this.columns.capacity) this.columns.grow();
    const slot = this.freeSlots.pop() ?? this.size;
    this.columns.write(slot, row);
    this.slotOf.set(row.id, slot);
    if (row.author > 0) addTo(this.byAuthor, row.author, slot);
    if (row.email !== NONE) this.linkEmail(row.email, slot);
    return slot;
  }

  private unlink(id: number): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    const row = this.columns.read(slot);
    this.slotOf.delete(id);
    this.freeSlots.push(slot);
    if (row.author > 0) removeFrom(this.byAuthor, row.author, slot);
    if (row.email !== NONE) this.unlinkEmail(row.email, slot);
  }

  private linkEmail(code: number, slot: number): void {
    if (code >= this.firstOfEmail.length) {
      const grown = new Int32Array(Math.max(1024, (code + 1) * 2)).fill(-1);
      grown.set(this.firstOfEmail);
      this.firstOfEmail = grown;
    }
    const { nextOfEmail, previousOfEmail } = this.columns;
    const first = this.firstOfEmail[code] as number;
    nextOfEmail[slot] = first;
    previousOfEmail[slot] = -1;
    if (first >= 0) previousOfEmail[first] = slot;
    this.firstOfEmail[code] = slot;
  }

  private unlinkEmail(code: number, slot: number): void {
    const { nextOfEmail, previousOfEmail } = this.columns;
    const previous = previousOfEmail[slot] as number;
    const next = nextOfEmail[slot] as number;
    if (previous >= 0) nextOfEmail[previous] = next;
    else this.firstOfEmail[code] = next;
    if (next >= 0) previousOfEmail[next] = previous;
  }

  /** Puts a linked slot into the sorted slots (binary search, then one move of the tail). */
  private insertSorted(slot: number): void {
    const live = this.size;
    if (this.sorted.length < live) {
      const grown = new Int32Array(this.columns.capacity);
      grown.set(this.sorted);
      this.sorted = grown;
    }
    const at = this.position(slot, live - 1);
    this.sorted.copyWithin(at + 1, at, live - 1);
    this.sorted[at] = slot;
  }

  /** Takes a slot (still linked) out of the sorted slots. */
  private unsort(slot: number | undefined): void {
    if (slot === undefined) return;
    const live = this.size;
    const at = this.position(slot, live);
    if (this.sorted[at] !== slot) return;
    this.sorted.copyWithin(at, at + 1, live);
  }

  /**
   * Where `slot` is, or goes, among `count` slots in list order: the first `count` sorted slots, or
   * (`slotAt`) those of a kept filter result's IDs.
   */
  private position(slot: number, count: number, slotAt = (i: number) => this.sorted[i] as number): number {
    let low = 0;
    let high = count;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.newestFirst(slotAt(mid), slot) < 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  private newestFirst(a: number, b: number): number {
    const { activity, id } = this.columns;
    return (activity[b] as number) - (activity[a] as number) || (id[b] as number) - (id[a] as number);
  }

  private coded(row: ListFields): Row {
    const emailKey = storedEmailKey(row.email);
    return {
      id: row.id,
      activity: Number(row.modified.replace(/\D/g, '').slice(0, 14)) || 0,
      status: this.code(row.postStatus),
      priority: this.code(row.priority),
      author: row.author,
      assignee: row.assignee ?? 0,
      email: emailKey === null ? NONE : this.code(emailKey),
      site: row.siteId === null ? NONE : this.code(row.siteId),
    };
  }

  private code(text: string): number {
    let found = this.codes.get(text);
    if (found === undefined) {
      found = this.names.length;
      this.codes.set(text, found);
      this.names.push(text);
    }
    return found;
  }
}

function addTo(map: Map<number, number[]>, key: number, slot: number): void {
  const list = map.get(key);
  if (list) list.push(slot);
  else map.set(key, [slot]);
}

function removeFrom(map: Map<number, number[]>, key: number, slot: number): void {
  const list = map.get(key);
  const at = list?.indexOf(slot) ?? -1;
  if (!list || at < 0) return;
  list.splice(at, 1);
  if (!list.length) map.delete(key);
}
