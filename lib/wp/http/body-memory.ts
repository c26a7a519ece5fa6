/**
 * The request bodies this process holds in memory, all requests together, within one budget
 * (HTTP_MAX_BODY_MEMORY_BYTES): each route's own limit bounds one body, and this bounds them all, so
 * that many clients sending large bodies at once cost a bounded amount of memory. Bytes are taken as
 * they arrive, so a client that declares a large body and sends nothing holds nothing. Each address
 * (address-key.ts: the visitor, behind a trusted proxy the forwarded one) may hold a quarter of the
 * budget, so that one client cannot take all of it: past its share, only that address is refused. A
 * body that would not fit now is refused with 503 and Retry-After before it is read; one whose room
 * is taken meanwhile is cut off there. Multipart files go to disk and are not counted.
 */
import { WpError } from '../errors';

/** Room for eight 8 MiB bodies (at most about four times their size live while they are decoded). */
export const DEFAULT_BODY_MEMORY_BYTES = 64 * 1024 * 1024;

/** Each address may hold this fraction of the budget (one over it). */
export const ADDRESS_SHARE_DIVISOR = 4;

/** Bodies are read within seconds: a client refused for want of room may try again this soon. */
export const BUSY_RETRY_AFTER_SECONDS = 5;

export class ServerBusyError extends WpError {
  constructor() {
    super('rest_server_busy', `The server is busy. Try again in ${BUSY_RETRY_AFTER_SECONDS} seconds.`, 503, { retry_after: BUSY_RETRY_AFTER_SECONDS });
  }
}

/** One request's share of the budget: bytes taken as they are held, all given back once. */
export interface BodyMemoryHold {
  /** Whether `bytes` more would fit now (taking nothing): a declared size checked before the read. */
  fits(bytes: number): boolean;
  /** Takes `bytes` more; false (taking nothing) when the budget has no room for them. */
  take(bytes: number): boolean;
  /** Gives back `bytes` no longer held (a file part's chunk written to disk). */
  give(bytes: number): void;
  /** Gives back everything this hold took; later calls do nothing. */
  release(): void;
}

export class BodyMemoryBudget {
  private held = 0;
  private readonly heldByAddress = new Map<string, number>();

  constructor(private limit: number = DEFAULT_BODY_MEMORY_BYTES) {}

  /** The budget in bytes; `serve` and `proxy` set it from HTTP_MAX_BODY_MEMORY_BYTES at start-up. */
  setLimit(bytes: number): void {
    this.limit = bytes;
  }

  get bytesHeld(): number {
    return this.held;
  }

  /** The bytes held for `address` (an address key) now. */
  bytesHeldBy(address: string): number {
    return this.heldByAddress.get(address) ?? 0;
  }

  /** A hold for one request from `address`, the visitor's address key (addressKey()). */
  open(address: string): BodyMemoryHold {
    let mine = 0;
    let released = false;
    const fits = (bytes: number) => this.held + bytes <= this.limit && this.bytesHeldBy(address) + bytes <= this.limit / ADDRESS_SHARE_DIVISOR;
    const change = (bytes: number) => {
      mine += bytes;
      this.held += bytes;
      const left = this.bytesHeldBy(address) + bytes;
      if (left > 0) this.heldByAddress.set(address, left);
      else this.heldByAddress.delete(address);
    };
    return {
      fits: (bytes) => !released && fits(bytes),
      take: (bytes) => {
        if (released || !fits(bytes)) return false;
        change(bytes);
        return true;
      },
      give: (bytes) => change(-Math.min(bytes, mine)),
      release: () => {
        if (released) return;
        released = true;
        change(-mine);
      },
    };
  }
}

/** The process's budget: one per process, since memory is. */
export const bodyMemory = new BodyMemoryBudget();
