/**
 * Group commit for incoming mail: messages that arrive while earlier ones are being written wait, and
 * are then written together, in one transaction, instead of one transaction each. A busy mailbox so
 * pays BEGIN, COMMIT and the batched post writes once per batch; a lone message is a batch of one and
 * waits for nothing. Each caller still gets its own result only after its batch has committed.
 *
 * One message's failure must not fail the messages it happened to share a transaction with: when a
 * batch fails, it has written nothing (rolled back), and each of its messages is written again on its
 * own, so that only the one at fault fails, exactly as it would have alone.
 */

/** At most this many messages in one transaction: a longer one holds its locks for longer. */
export const MAX_BATCH = 16;
/** Batches written at once: the next one is prepared while the last one commits. */
const CONCURRENT_BATCHES = 2;

interface Waiting<Item, Result> {
  item: Item;
  resolve: (result: Result) => void;
  reject: (err: unknown) => void;
}

export class WriteBatches<Item, Result> {
  private readonly waiting: Array<Waiting<Item, Result>> = [];
  private running = 0;

  /** `writeAll` writes the items in one transaction and returns their results in the same order. */
  constructor(private readonly writeAll: (items: Item[]) => Promise<Result[]>) {}

  /** Resolves with the item's result once the transaction that wrote it has committed. */
  write(item: Item): Promise<Result> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.next();
    });
  }

  private next(): void {
    if (this.running >= CONCURRENT_BATCHES || !this.waiting.length) return;
    const batch = this.waiting.splice(0, MAX_BATCH);
    this.running++;
    void this.writeBatch(batch).finally(() => {
      this.running--;
      this.next();
    });
  }

  private async writeBatch(batch: Array<Waiting<Item, Result>>): Promise<void> {
    try {
      const results = await this.writeAll(batch.map((w) => w.item));
      batch.forEach((w, i) => w.resolve(results[i] as Result));
    } catch (err) {
      if (batch.length === 1) return (batch[0] as Waiting<Item, Result>).reject(err);
      await Promise.all(batch.map((w) => this.writeAll([w.item]).then(([result]) => w.resolve(result as Result), w.reject)));
    }
  }
}
