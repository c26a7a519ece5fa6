/**
 * What an answer is grounded in (docs/chat.md, "Retrieval"): the public docs (published, no password)
 * split into heading-sized passages, ranked with the docs search's engine and rules (MiniSearch, the same words,
 * folding, plurals, prefixes, typos and stop words: ../docs/text.ts, ../docs/search.ts), the best
 * few numbered as sources for the prompt.
 *
 * The passage index follows the docs search index rather than reading the docs on its own schedule:
 * each use first waits for that index to be fresh (its freshness bound and change tokens), then
 * re-chunks only the docs whose `post_modified_gmt` it has not chunked and drops the docs the index
 * no longer holds; nothing is looked at while the docs index's version has not moved. A passage keeps
 * the docs index's own title and slug rather than copies.
 */
import { Site } from '../../wp/site';
import { DeskPart, deskOf } from '../desk';
import { CompactMiniSearch } from '../docs/compact-postings';
import { DocIndex, IndexedDoc, READ_BATCH, docSearchIndex } from '../docs/search-index';
import { STOP_WORDS, typoDistance } from '../docs/search';
import { docPermalink, readDocs } from '../docs/store';
import { foldTerm, plainText, searchTerm, tokenizeText } from '../docs/text';

/** A passage's words at most: long sections are cut into pieces of this size. */
const PASSAGE_WORDS = 180;
/** Passages a prompt holds at most, and from one doc at most. */
export const MAX_PASSAGES = 4;
const MAX_PER_DOC = 2;
/** A passage is relevant when it matches at least this share of the question's meaningful words. */
const MIN_MATCHED_SHARE = 0.5;
/** Field weights, as the docs search weighs a doc's title against its body. */
const FIELD_BOOST = { title: 3, heading: 2, body: 1 };
/** Docs chunked per learning batch (POST /chat/admin/learn). */
export const LEARN_BATCH = 50;
/** Docs chunked between two turns of the event loop. */
const YIELD_EVERY = 100;

export interface Passage {
  id: string;
  docId: number;
  /** The doc's title and the section's heading ('' before the first heading), plain text. */
  title: string;
  heading: string;
  /** The section's anchor (`id` attribute of its heading), or ''. */
  anchor: string;
  slug: string;
  text: string;
}

/** A passage chosen for an answer: numbered [n] in the prompt, with the link a citation shows. */
export interface NumberedSource {
  n: number;
  title: string;
  url: string;
  text: string;
  docId: number;
}

export interface LearningProgress {
  /** Published docs the docs index holds. */
  docs: number;
  /** Of those, chunked as they now stand. */
  learned: number;
  left: number;
  passages: number;
  /** Docs chunked and dropped by this call (learn only). */
  chunked?: number;
  dropped?: number;
}

interface Fields {
  id: string;
  title: string;
  heading: string;
  body: string;
}

class PassageIndex {
  private readonly engine = new CompactMiniSearch<Fields>({
    fields: ['title', 'heading', 'body'],
    storeFields: [],
    tokenize: tokenizeText,
    processTerm: (term) => searchTerm(term) || null,
  });
  private readonly passages = new Map<string, Passage>();
  /** Per doc: the `post_modified_gmt` chunked and its passages' ids. */
  private readonly byDoc = new Map<number, { modified: string; ids: string[] }>();
  /** The docs index's version the passages were last brought up to (-1: never). */
  private version = -1;
  private running: Promise<unknown> = Promise.resolve();

  constructor(private readonly site: Site, private readonly docs: DocIndex) {}

  /** Brings the passages up to the docs index, `batch` docs at most (one at a time per process). */
  sync(batch = Infinity): Promise<LearningProgress> {
    const next = this.running.then(() => this.syncNow(batch));
    this.running = next.catch(() => undefined);
    return next;
  }

  /** The best passages for a question, best first, none when nothing is relevant enough; `allowed` collections only (null: any). */
  rank(question: string, allowed: Set<string> | null): Passage[] {
    const words = tokenizeText(foldTerm(question));
    const meaningful = [...new Set(words.filter((w) => !STOP_WORDS.has(w)))];
    if (!meaningful.length) return [];
    const needed = Math.max(1, Math.ceil(meaningful.length * MIN_MATCHED_SHARE));
    const perDoc = new Map<number, number>();
    const chosen: Passage[] = [];
    const { docs } = this;
    // Only docs the docs index still holds: one protected or unpublished since the last sync is never a source.
    const shown = (docId: number) => docs.doc(docId) !== undefined && (allowed === null || docs.collectionsOf(docId).some((slug) => allowed.has(slug)));
    for (const hit of this.engine.search(meaningful.join(' '), {
      boost: FIELD_BOOST,
      prefix: (term) => term.length >= 3,
      fuzzy: typoDistance,
      filter: (hit) => shown(this.passages.get(String(hit.id))?.docId ?? 0),
    })) {
      if (new Set(hit.queryTerms).size < needed) continue;
      const passage = this.passages.get(String(hit.id));
      if (!passage || (perDoc.get(passage.docId) ?? 0) >= MAX_PER_DOC) continue;
      perDoc.set(passage.docId, (perDoc.get(passage.docId) ?? 0) + 1);
      chosen.push(passage);
      if (chosen.length >= MAX_PASSAGES) break;
    }
    return chosen;
  }

  private async syncNow(batch: number): Promise<LearningProgress> {
    const { docs } = this;
    await docs.ready();
    const { version } = docs;
    if (version === this.version) return this.progress(docs, 0, 0, 0);
    let dropped = 0;
    for (const id of [...this.byDoc.keys()]) {
      if (!docs.doc(id)) {
        this.removeDoc(id);
        dropped += 1;
      }
    }
    const stale = [...docs.allDocs()].filter((d) => this.byDoc.get(d.id)?.modified !== d.modified).map((d) => d.id).sort((a, b) => a - b);
    const now = stale.slice(0, batch);
    let done = 0;
    for (let start = 0; start < now.length; start += READ_BATCH) {
      for (const row of await readDocs(this.site.db, now.slice(start, start + READ_BATCH))) {
        // Chunking thousands of docs takes seconds: other requests are served in between.
        if (++done % YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
        this.removeDoc(row.id);
        const doc = docs.doc(row.id);
        const passages = chunkDoc(row).map((p) => (doc ? sharing(p, doc) : p));
        for (const p of passages) {
          this.passages.set(p.id, p);
          this.engine.add({ id: p.id, title: p.title, heading: p.heading, body: p.text });
        }
        this.byDoc.set(row.id, { modified: row.modified, ids: passages.map((p) => p.id) });
      }
    }
    if (done >= YIELD_EVERY) this.engine.compact();
    const left = stale.length - now.length;
    // Only a complete pass may say the passages are the docs index's as of its version.
    if (left === 0) this.version = version;
    return this.progress(docs, left, now.length, dropped);
  }

  private progress(docs: DocIndex, left: number, chunked: number, dropped: number): LearningProgress {
    const total = [...docs.allDocs()].length;
    return { docs: total, learned: total - left, left, passages: this.passages.size, chunked, dropped };
  }

  private removeDoc(id: number): void {
    for (const passageId of this.byDoc.get(id)?.ids ?? []) {
      this.engine.discard(passageId);
      this.passages.delete(passageId);
    }
    this.byDoc.delete(id);
  }
}

/** The passage with the doc's own title and slug where they are the same (one string each, not one a passage). */
function sharing(passage: Passage, doc: IndexedDoc): Passage {
  return {
    ...passage,
    title: passage.title === doc.title ? doc.title : passage.title,
    slug: passage.slug === doc.slug ? doc.slug : passage.slug,
  };
}

/** The site's passages on its support desk, following the same desk's docs search index. */
const passageIndex: DeskPart<PassageIndex> = {
  name: 'chat passage index',
  make: (site, desk) => new PassageIndex(site, desk.get(docSearchIndex)),
};

/**
 * The passages to ground an answer in, numbered from 1, with their links; [] when nothing is relevant.
 * `allowed`: only docs in these collections (a connected site's); null for any.
 */
export async function retrieveSources(site: Site, question: string, allowed: Set<string> | null = null): Promise<NumberedSource[]> {
  if (allowed?.size === 0) return [];
  const index = deskOf(site).get(passageIndex);
  await index.sync();
  const passages = index.rank(question, allowed);
  if (!passages.length) return [];
  const home = await site.homeUrl();
  const structure = String((await site.options.get('permalink_structure', '')) || '');
  return passages.map((p, i) => ({
    n: i + 1,
    title: p.heading ? `${p.title}: ${p.heading}` : p.title,
    url: `${docPermalink(home, structure, { id: p.docId, slug: p.slug })}${p.anchor ? `#${encodeURIComponent(p.anchor)}` : ''}`,
    text: p.text,
    docId: p.docId,
  }));
}

/** One learning batch (POST /chat/admin/learn): up to LEARN_BATCH changed docs chunked, deleted ones dropped. */
export function learnBatch(site: Site): Promise<LearningProgress> {
  return deskOf(site).get(passageIndex).sync(LEARN_BATCH);
}

/** How far learning is (GET /chat/admin/learning), without chunking anything. */
export async function learningProgress(site: Site): Promise<LearningProgress> {
  const { chunked: _c, dropped: _d, ...progress } = await deskOf(site).get(passageIndex).sync(0);
  return progress;
}

/** A heading tag and what it holds, up to its closing tag. */
const HEADING = /<h([1-6])\b([^>]*)>([\s\S]*?)<\/h\1\s*>/gi;

/** A doc's passages: the text before its first heading, then one per heading, long ones cut by words. */
export function chunkDoc(row: { id: number; title: string; content: string; slug: string }): Passage[] {
  const title = plainText(row.title);
  const sections: Array<{ heading: string; anchor: string; html: string }> = [];
  let last = 0;
  let current = { heading: '', anchor: '' };
  for (const match of row.content.matchAll(HEADING)) {
    sections.push({ ...current, html: row.content.slice(last, match.index) });
    current = { heading: plainText(match[3] ?? ''), anchor: /\bid\s*=\s*["']([^"']+)["']/i.exec(match[2] ?? '')?.[1] ?? '' };
    last = (match.index ?? 0) + match[0].length;
  }
  sections.push({ ...current, html: row.content.slice(last) });
  const passages: Passage[] = [];
  for (const section of sections) {
    const words = plainText(section.html).split(' ').filter(Boolean);
    if (!words.length && !section.heading) continue;
    for (let start = 0; start === 0 || start < words.length; start += PASSAGE_WORDS) {
      passages.push({
        id: `${row.id}:${passages.length}`, docId: row.id, title, heading: section.heading, anchor: section.anchor, slug: row.slug,
        text: words.slice(start, start + PASSAGE_WORDS).join(' '),
      });
    }
  }
  return passages;
}
