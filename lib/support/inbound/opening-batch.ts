/**
 * Mail that opens tickets, written together. While one batch of such messages is being written, those
 * that arrive wait for the next (up to 16 a batch): one transaction of a few multi-row statements
 * (openTickets) instead of a dozen statements a message, which is most of what intake costs the server
 * and the database (docs/performance.md, "Mail intake").
 *
 * A message joins when it carries nothing that could continue a ticket (mayOpenTicket in ./intake.ts).
 * Inside the transaction the batch reads its Message-IDs and receipt keys: a message already stored
 * (a repeat), a delivery already answered (a retry), or a second one in the batch with the same
 * Message-ID or key leaves the batch. Those that leave, and all of a batch that fails (a key taken
 * meanwhile by a concurrent copy, a database error), take the one-at-a-time path, which decides each anew.
 */
import { Site } from '../../wp/site';
import { openTickets } from '../tickets/create';
import { EmailContent, EmailSender, emailOpening } from '../tickets/intake';
import { DeskPart, deskOf } from '../desk';
import { WriteContext, writeSupport } from '../write';
import { Receipt, ReceiptKey, findStoredMessages, keyText, newReceiptId, storeReceipts, storedKeys } from './store';

/** A message that opens a ticket, as intake read it. */
export interface Opening {
  mailboxKey: string;
  key: ReceiptKey;
  sender: EmailSender;
  content: EmailContent;
}

/** Enough to write most of what arrives while a batch is written, few enough to keep each one short. */
const MAX_BATCH = 16;

/** The receipt of the stored ticket, or null: the message left the batch and must go one at a time. */
export function openInBatch(site: Site, opening: Opening): Promise<Receipt | null> {
  return deskOf(site).get(openingQueue).add(opening);
}

interface Waiting {
  opening: Opening;
  settle: (receipt: Receipt | null) => void;
}

/** One site's messages waiting to open tickets; one batch of them is written at a time. */
class OpeningQueue {
  private waiting: Waiting[] = [];
  private writing = false;

  constructor(private readonly site: Site) {}

  add(opening: Opening): Promise<Receipt | null> {
    return new Promise((settle) => {
      this.waiting.push({ opening, settle });
      void this.drain();
    });
  }

  private async drain(): Promise<void> {
    if (this.writing) return;
    this.writing = true;
    try {
      while (this.waiting.length) {
        const batch = this.waiting.splice(0, MAX_BATCH);
        let receipts: Array<Receipt | null> = [];
        try {
          receipts = await writeBatch(this.site, batch.map((w) => w.opening));
        } finally {
          batch.forEach((w, i) => w.settle(receipts[i] ?? null));
        }
      }
    } finally {
      this.writing = false;
    }
  }
}

const openingQueue: DeskPart<OpeningQueue> = {
  name: 'mail opening batches',
  make: (site) => new OpeningQueue(site),
};

/** Raised inside the batch's transaction to roll it back: its messages go one at a time. */
class BatchRefused extends Error {}

/** Each opening's receipt, or null for those that left the batch (all of them when it failed). */
async function writeBatch(site: Site, openings: Opening[]): Promise<Array<Receipt | null>> {
  try {
    return await writeSupport(site, {}, async (ctx) => {
      const joining = await stillNew(ctx, site, openings);
      const members = openings.filter((_, i) => joining[i]);
      if (!members.length) return openings.map(() => null);
      const opened = await openTickets(site, ctx, members.map((o) => emailOpening(o.mailboxKey, o.sender, o.content)));
      const receipts = new Map(members.map((o, i): [Opening, Receipt] => {
        const { ticketId, messageId } = opened[i] as { ticketId: number; messageId: number };
        return [o, { receiptId: newReceiptId(), outcome: 'ticket_created', reason: null, ticketId, messageId }];
      }));
      const rows = [...receipts].map(([o, receipt]) => ({ key: o.key, receipt, details: { rawFrom: o.content.rawFrom, subject: o.content.subject, rawFile: null } }));
      if (!(await storeReceipts(ctx.trx, ctx.tables, rows, ctx.nowSeconds))) throw new BatchRefused();
      return openings.map((o) => receipts.get(o) ?? null);
    });
  } catch (err) {
    // Nothing of the batch is stored: each message goes one at a time, where a real fault shows too.
    if (!(err instanceof BatchRefused)) site.logger.warn('mail intake: a batch of new tickets failed; its messages go one at a time', { messages: openings.length, error: String(err) });
    return openings.map(() => null);
  }
}

/**
 * Which openings may still open a ticket: no message with their Message-ID stored, no receipt with
 * their key, and none earlier in the batch with either (keys compared as the unique index does).
 */
async function stillNew(ctx: WriteContext, site: Site, openings: Opening[]): Promise<boolean[]> {
  const ids = openings.flatMap((o) => (o.content.messageId ? [o.content.messageId] : []));
  const storedIds = new Set((await findStoredMessages(ctx.trx, site.db, [...new Set(ids)])).map((m) => m.messageId.toLowerCase()));
  const takenKeys = await storedKeys(ctx.trx, ctx.tables, openings.map((o) => o.key));
  const seen = new Set<string>();
  return openings.map((o) => {
    const id = o.content.messageId?.toLowerCase();
    const key = keyText(o.key);
    const fresh = !(id && (storedIds.has(id) || seen.has(`id:${id}`))) && !takenKeys.has(key) && !seen.has(`key:${key}`);
    if (id) seen.add(`id:${id}`);
    seen.add(`key:${key}`);
    return fresh;
  });
}
