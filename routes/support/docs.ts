/**
 * support/v1 published docs (contract sections 2 "Docs feedback", 4 "Docs", 8; docs/docs.md):
 * - GET /docs/search: up to 8 public docs, best first; `collection` and `site` narrow them; 120 per
 *   address and minute, counted in batches shared across processes within a quarter of a second.
 * - POST /docs/<id>/feedback: a helpful / not helpful vote with an optional comment; one per doc,
 *   visitor and day (a second that day replaces the first), 20 per visitor address and hour.
 * Both are public. The visitor is a keyed hash of the address (the principal), never the address.
 */
import { recordFeedback, VOTES_PER_HOUR } from '../../lib/support/docs/feedback';
import { presentDocHits, presentVote } from '../../lib/support/docs/present';
import { searchDocs } from '../../lib/support/docs/search';
import { DocVisitor, docVisitor } from '../../lib/support/docs/visitor';
import { operations, publicItemSchema, routeSchema } from '../../lib/wp/rest/item-schema';
import { RestRequest, allowAnyone, endpoint } from '../../lib/wp/rest/route';
import { resolveRefs } from '../../lib/wp/rest/schema-refs';
import { SUPPORT_SCHEMAS } from '../../schema/support';
import { docOperations, docSchema } from '../../schema/support/doc';
import { docFeedbackSchema } from '../../schema/support/doc-feedback';
import { supportRoute } from './kit';

/**
 * Searches per address and minute: a reader typing in a search-as-you-type box (one search a
 * keystroke or so) stays well below; a flood of distinct queries from one address does not.
 */
export const SEARCHES_PER_MINUTE = 120;

/** A vote is a flag and at most 1,000 characters. */
const FEEDBACK_MAX_BODY_BYTES = 16 * 1024;

const DOC_ITEM_SCHEMA = publicItemSchema(resolveRefs(docSchema, SUPPORT_SCHEMAS));

const docArgs = operations(docOperations, SUPPORT_SCHEMAS, ['id']);

export const docsSearch = supportRoute({
  route: '/docs/search',
  // The same answer for everyone, from posts: the desk's storage check (its plugin tables, uploads) is not its.
  cache: 'public',
  storage: false,
  schema: () => DOC_ITEM_SCHEMA,
  endpoints: [
    endpoint({
      methods: ['GET'],
      args: docArgs.search,
      // Every caller is counted by address, signed in or not: a search is the same for all.
      principal: (req: RestRequest) => docVisitor(req.site, req.ip),
      permission: allowAnyone,
      // Batched: a search changes nothing, so counts shared a quarter of a second late are harmless.
      rateLimit: { name: 'docs.search', limit: SEARCHES_PER_MINUTE, windowSeconds: 60, key: visitorKey, counting: 'batched' },
      async handler(req) {
        const { q, collection, site } = req.params;
        return presentDocHits(req.site, await searchDocs(req.site, { q, collection, site }));
      },
    }),
  ],
});

/** The rate-limit bucket's "who": the visitor's keyed hash, never the address. */
function visitorKey(req: RestRequest<DocVisitor>): string {
  return `visitor:${req.principal.hash}`;
}

export const docFeedback = supportRoute({
  route: '/docs/(?P<id>[\\d]+)/feedback',
  schema: routeSchema(docFeedbackSchema, SUPPORT_SCHEMAS),
  // Votes are kept in the plugin's own table (storage is checked); the answer carries WordPress's headers only.
  cache: 'public',
  endpoints: [
    endpoint({
      methods: ['POST'],
      args: docArgs.feedback,
      maxBodyBytes: FEEDBACK_MAX_BODY_BYTES,
      principal: (req: RestRequest) => docVisitor(req.site, req.ip),
      permission: allowAnyone,
      rateLimit: { name: 'docs.feedback', limit: VOTES_PER_HOUR, windowSeconds: 3600, key: visitorKey },
      async handler(req) {
        const { id, helpful, comment = '' } = req.params;
        const vote = await recordFeedback(req.site, id, req.principal, { helpful, comment: comment.trim() });
        return presentVote(id, helpful, vote);
      },
    }),
  ],
});
