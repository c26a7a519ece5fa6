/**
 * Every ticket's list fields in memory, newest activity first (docs/performance.md "The ticket
 * list"): what a list filters and sorts on, and nothing else (repeated strings shared). Pages are
 * cut from it and their tickets read by ID. Pure data: ./list-live.ts keeps it in step with the
 * database. The filters mean exactly what ./list-query.ts means in SQL.
 */
import { ownershipEmailKey } from './customer-email';
import { TicketFilter } from './list-query';
import { TICKET_POST_STATUSES, postStatusOf } from './rows';
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

export interface IndexedTicket {
  id: number;
  postStatus: string;
  /** `post_modified` as the number YYYYMMDDhhmmss: orders as the column does. */
  activity: number;
  author: number;
  priority: TicketPriority;
  assignee: number | null;
  /** The customer email as ownership compares it (printable ASCII, ASCII letters lowercased), or null. */
  emailKey: string | null;
  siteId: string | null;
}

const LISTED: ReadonlySet<string> = new Set(TICKET_POST_STATUSES);

/** Above this many changed tickets an update sorts everything once instead of moving each. */
const BULK_CHANGES = 2000;

/** Filters whose matches are kept between changes (agents' views and customers' own lists). */
const MEMO_LIMIT = 256;

export class TicketListIndex {
  private readonly byId = new Map<number, IndexedTicket>();
  /** Newest activity first, then highest ID: the SQL list's ORDER BY. */
  private sorted: IndexedTicket[] = [];
  private readonly byAuthor = new Map<number, IndexedTicket[]>();
  private readonly byEmail = new Map<string, IndexedTicket[]>();
  /** One copy of each repeated string (statuses, addresses, site-ids), not one per ticket. */
  private readonly strings = new Map<string, string>();
  private readonly memo = new Map<string, IndexedTicket[]>();
  private highestId = 0;
  private listed = 0;
  /** Set by a bulk change; the next read sorts once (a first load inserts range by range). */
  private unsorted = false;

  get size(): number {
    return this.byId.size;
  }

  get maxId(): number {
    return this.highestId;
  }

  /** Tickets in a status lists show (open, waiting, resolved): what a census of the table counts. */
  get listedCount(): number {
    return this.listed;
  }

  ids(): IterableIterator<number> {
    return this.byId.keys();
  }

  /** Puts tickets in (new ones, or new states of known ones); a ticket read again unchanged costs nothing. */
  upsert(rows: readonly ListFields[]): void {
    const fresh = rows.map((row) => this.indexed(row)).filter((entry) => !sameEntry(this.byId.get(entry.id), entry));
    if (!fresh.length) return;
    // Many changes (a first load, range by range), or a sort already pending: sorted once, when next read.
    // Fewer: each moved into place.
    if (this.unsorted || fresh.length > BULK_CHANGES) {
      for (const entry of fresh) this.unlink(entry.id);
      for (const entry of fresh) this.link(entry);
      this.unsorted = true;
    } else {
      for (const entry of fresh) {
        const old = this.unlink(entry.id);
        if (old) this.sorted.splice(this.position(old), 1);
        this.link(entry);
        this.sorted.splice(this.position(entry), 0, entry);
      }
    }
    this.memo.clear();
  }

  /** Takes tickets out (deleted outright). */
  remove(ids: Iterable<number>): void {
    this.sort();
    for (const id of ids) {
      const entry = this.unlink(id);
      if (entry) this.sorted.splice(this.position(entry), 1);
    }
    this.memo.clear();
  }

  /** Every ticket the filter lists (its `search` is for SQL: callers never pass one), in list order. */
  matches(filter: TicketFilter): readonly IndexedTicket[] {
    const key = JSON.stringify(filter);
    const kept = this.memo.get(key);
    if (kept) return kept;
    this.sort();
    const test = predicate(filter);
    const found = (filter.viewer.agent ? this.sorted : this.ownedBy(filter)).filter(test);
    if (this.memo.size >= MEMO_LIMIT) this.memo.delete(this.memo.keys().next().value as string);
    this.memo.set(key, found);
    return found;
  }

  private sort(): void {
    if (!this.unsorted) return;
    this.sorted = [...this.byId.values()].sort(newestFirst);
    this.unsorted = false;
  }

  /** A customer's tickets, by author and by email (a handful, not a scan of every ticket). */
  private ownedBy(filter: TicketFilter): IndexedTicket[] {
    const { userId, email } = filter.viewer;
    const emailKey = ownershipEmailKey(email);
    const owned = new Set([...(userId > 0 ? this.byAuthor.get(userId) ?? [] : []), ...(emailKey ? this.byEmail.get(emailKey) ?? [] : [])]);
    return [...owned].sort(newestFirst);
  }

  private link(entry: IndexedTicket): void {
    this.byId.set(entry.id, entry);
    this.highestId = Math.max(this.highestId, entry.id);
    if (LISTED.has(entry.postStatus)) this.listed++;
    if (entry.author > 0) addTo(this.byAuthor, entry.author, entry);
    if (entry.emailKey) addTo(this.byEmail, entry.emailKey, entry);
  }

  private unlink(id: number): IndexedTicket | undefined {
    const entry = this.byId.get(id);
    if (!entry) return undefined;
    this.byId.delete(id);
    if (LISTED.has(entry.postStatus)) this.listed--;
    if (entry.author > 0) removeFrom(this.byAuthor, entry.author, entry);
    if (entry.emailKey) removeFrom(this.byEmail, entry.emailKey, entry);
    return entry;
  }

  private indexed(row: ListFields): IndexedTicket {
    const { email } = row;
    // As ./customer-email.ts's whereOwnerEmail() compares stored addresses in SQL.
    const emailKey = /^[\x21-\x7e]+$/.test(email) ? email.replace(/[A-Z]+/g, (l) => l.toLowerCase()) : null;
    return {
      id: row.id,
      postStatus: this.shared(row.postStatus),
      activity: Number(row.modified.replace(/\D/g, '').slice(0, 14)) || 0,
      author: row.author,
      priority: row.priority,
      assignee: row.assignee,
      emailKey: emailKey === null ? null : this.shared(emailKey),
      siteId: row.siteId === null ? null : this.shared(row.siteId),
    };
  }

  private shared(text: string): string {
    const found = this.strings.get(text);
    if (found !== undefined) return found;
    this.strings.set(text, text);
    return text;
  }

  /** Where `entry` is, or goes, in the sorted list (binary search). */
  private position(entry: IndexedTicket): number {
    let low = 0;
    let high = this.sorted.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (newestFirst(this.sorted[mid] as IndexedTicket, entry) < 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}

function sameEntry(a: IndexedTicket | undefined, b: IndexedTicket): boolean {
  return a !== undefined && a.postStatus === b.postStatus && a.activity === b.activity && a.author === b.author && a.priority === b.priority
    && a.assignee === b.assignee && a.emailKey === b.emailKey && a.siteId === b.siteId;
}

function addTo<K>(map: Map<K, IndexedTicket[]>, key: K, entry: IndexedTicket): void {
  const list = map.get(key);
  if (list) list.push(entry);
  else map.set(key, [entry]);
}

function removeFrom<K>(map: Map<K, IndexedTicket[]>, key: K, entry: IndexedTicket): void {
  const list = map.get(key);
  const at = list?.indexOf(entry) ?? -1;
  if (!list || at < 0) return;
  list.splice(at, 1);
  if (!list.length) map.delete(key);
}

function newestFirst(a: IndexedTicket, b: IndexedTicket): number {
  return b.activity - a.activity || b.id - a.id;
}

/** The filter as a test of one ticket (ownership is narrowed before, by ownedBy()). */
function predicate(filter: TicketFilter): (t: IndexedTicket) => boolean {
  const statuses = new Set(filter.status ? [postStatusOf(filter.status)] : TICKET_POST_STATUSES);
  const { priority, assignment, siteId, viewer } = filter;
  return (t) => statuses.has(t.postStatus)
    && (priority === undefined || t.priority === priority)
    && (assignment !== 'mine' || t.assignee === viewer.userId)
    && (assignment !== 'unassigned' || t.assignee === null)
    && (siteId === undefined || t.siteId === siteId);
}
