/**
 * The in-memory ticket index against the plainest model of it: after any mix of first loads, bulk
 * and single changes and deletions, every filter lists what filtering and sorting every ticket lists.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ListFields, TicketListIndex } from '../../../../lib/support/tickets/list-index';
import { TicketFilter } from '../../../../lib/support/tickets/list-query';
import { TICKET_POST_STATUSES, postStatusOf } from '../../../../lib/support/tickets/rows';
import { TicketPriority, TicketStatus } from '../../../../lib/support/tickets/types';

const STATUSES = [...TICKET_POST_STATUSES, 'trash'];
const EMAILS = ['ann@example.net', 'Ann@Example.NET', 'bob@example.net', 'bad address', ''];

const fields = (id: number, seed: number): ListFields => ({
  id,
  postStatus: STATUSES[seed % STATUSES.length] as string,
  // Few distinct times, so that ties are ordered by ID.
  modified: `2026-11-${String(1 + (seed % 5)).padStart(2, '0')} 10:00:0${seed % 3}`,
  author: seed % 4,
  priority: (['normal', 'high', 'urgent'] as const)[seed % 3] as TicketPriority,
  // As stored: an agent's ID, or null (assigneeOf() never gives 0).
  assignee: seed % 5 === 0 ? null : 1 + (seed % 3),
  email: EMAILS[seed % EMAILS.length] as string,
  // A third site appears only in some runs: a kept filter for it may have been made before it existed.
  siteId: seed % 11 === 0 ? 'mnopqrstuvwx' : seed % 2 ? 'abcdefghijkl' : null,
});

/** What the filter lists, by brute force over the model. */
function expected(model: Map<number, ListFields>, f: TicketFilter): number[] {
  const statuses = f.status ? [postStatusOf(f.status)] : TICKET_POST_STATUSES;
  const key = (e: string) => (/^[\x21-\x7e]+$/.test(e) ? e.toLowerCase() : null);
  return [...model.values()]
    .filter((t) => statuses.includes(t.postStatus))
    .filter((t) => f.viewer.agent || (f.viewer.userId > 0 && t.author === f.viewer.userId) || (key(t.email) !== null && key(t.email) === key(f.viewer.email)))
    .filter((t) => f.priority === undefined || t.priority === f.priority)
    .filter((t) => f.assignment !== 'mine' || t.assignee === f.viewer.userId)
    .filter((t) => f.assignment !== 'unassigned' || t.assignee === null)
    .filter((t) => f.siteId === undefined || t.siteId === f.siteId)
    .sort((a, b) => b.modified.localeCompare(a.modified) || b.id - a.id)
    .map((t) => t.id);
}

const FILTERS: TicketFilter[] = [
  { viewer: { userId: 1, email: '', agent: true }, searchInternalNotes: true },
  { viewer: { userId: 1, email: '', agent: true }, status: 'open' as TicketStatus, priority: 'high', searchInternalNotes: true },
  { viewer: { userId: 2, email: '', agent: true }, assignment: 'mine', searchInternalNotes: true },
  { viewer: { userId: 2, email: '', agent: true }, status: 'resolved' as TicketStatus, assignment: 'unassigned', searchInternalNotes: true },
  { viewer: { userId: 3, email: 'ANN@example.net', agent: false }, searchInternalNotes: false },
  { viewer: { userId: 0, email: 'bob@example.net', agent: false }, siteId: 'abcdefghijkl', searchInternalNotes: false },
  { viewer: { userId: 1, email: '', agent: true }, siteId: 'mnopqrstuvwx', priority: 'urgent', searchInternalNotes: true },
];

describe('the in-memory ticket index', () => {
  it('lists what filtering and sorting every ticket lists, after any mix of loads, changes and deletions', () => {
    const operation = fc.oneof(
      fc.record({ kind: fc.constant('upsert' as const), ids: fc.array(fc.integer({ min: 1, max: 3000 }), { maxLength: 40 }), seed: fc.nat() }),
      // A change or two at a time, as a worked desk makes them (kept matches are patched, not read again).
      fc.record({ kind: fc.constant('upsert' as const), ids: fc.array(fc.integer({ min: 1, max: 3000 }), { minLength: 1, maxLength: 2 }), seed: fc.nat() }),
      fc.record({ kind: fc.constant('bulk' as const), from: fc.integer({ min: 1, max: 1000 }), seed: fc.nat() }),
      fc.record({ kind: fc.constant('remove' as const), ids: fc.array(fc.integer({ min: 1, max: 3000 }), { maxLength: 40 }) }),
    );
    fc.assert(fc.property(fc.array(operation, { minLength: 1, maxLength: 12 }), (operations) => {
      const index = new TicketListIndex();
      const model = new Map<number, ListFields>();
      for (const op of operations) {
        if (op.kind === 'remove') {
          index.remove(op.ids);
          for (const id of op.ids) model.delete(id);
          continue;
        }
        // A bulk change is more than 2,000 tickets at once: the index sorts them once, later.
        const ids = op.kind === 'bulk' ? Array.from({ length: 2100 }, (_, i) => op.from + i) : op.ids;
        const rows = ids.map((id, i) => fields(id, op.seed + i * 7 + id));
        index.upsert(rows);
        for (const row of rows) model.set(row.id, row);
        // Asked between changes too: kept matches are patched by the next small change.
        for (const filter of FILTERS) assert.deepEqual(Array.from(index.matches(filter)), expected(model, filter), JSON.stringify(filter));
      }
      assert.equal(index.size, model.size);
      const census = new Map<string, { count: number; idSum: number }>();
      for (const t of model.values()) {
        const counted = census.get(t.postStatus) ?? { count: 0, idSum: 0 };
        census.set(t.postStatus, { count: counted.count + 1, idSum: counted.idSum + t.id });
      }
      assert.deepEqual(index.census(), census);
      for (const filter of FILTERS) assert.deepEqual(Array.from(index.matches(filter)), expected(model, filter), JSON.stringify(filter));
    }), { numRuns: 100, seed: 20261126 });
  });
});
