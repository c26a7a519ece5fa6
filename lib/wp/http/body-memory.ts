/**
 * The request bodies this process holds in memory, all requests together, within one budget
 * (HTTP_MAX_BODY_MEMORY_BYTES): each route's own limit bounds one body, and this bounds them all, so
 * that many clients sending large bodies at once cost a bounded amount of memory. A body that would
 * take the total past the budget is refused with 503 and Retry-After, before its declared bytes are
 * read (or as soon as a chunked one gets there). Multipart files go to disk and are not counted.
 */
import { WpError } from '../errors';

/** Room for eight 8 MiB bodies (at most about four times their size live while they are decoded). */
export const DEFAULT_BODY_MEMORY_BYTES = 64 * 1024 * 1024;

/** Bodies are read within seconds: a client refused for want of room may try again this soon. */
export const BUSY_RETRY_AFTER_SECONDS = 5;

export class ServerBusyError extends WpError {
  constructor() {
    super('rest_server_busy', `The server is busy. Try again in ${BUSY_RETRY_AFTER_SECONDS} seconds.`, 503, { retry_after: BUSY_RETRY_AFTER_SECONDS });
  }
}

/** One request's share of the budget: bytes taken as they are held, all given back once. */
export interface BodyMemoryHold {
  /** Takes `bytes` more; false (taking nothing) when the budget has no room for them. */
  take(bytes: number): boolean;
  /** Gives back `bytes` no longer held (a file part's chunk written to disk). */
  give(bytes: number): void;
  /** Gives back everything this hold took; later calls do nothing. */
  release(): void;
}

export class BodyMemoryBudget {
  private held = 0;

  constructor(private limit: number = DEFAULT_BODY_MEMORY_BYTES) {}

  /** The budget in bytes; `serve` and `proxy` set it from HTTP_MAX_BODY_MEMORY_BYTES at start-up. */
  setLimit(bytes: number): void {
    this.limit = bytes;
  }

  get bytesHeld(): number {
    return this.held;
  }

  open(): BodyMemoryHold {
    let mine = 0;
    let released = false;
    return {
      take: (bytes) => {
        if (released || this.held + bytes > this.limit) return false;
        this.held += bytes;
        mine += bytes;
        return true;
      },
      give: (bytes) => {
        const given = Math.min(bytes, mine);
        mine -= given;
        this.held -= given;
      },
      release: () => {
        if (released) return;
        released = true;
        this.held -= mine;
        mine = 0;
      },
    };
  }
}

/** The process's budget: one per process, since memory is. */
export const bodyMemory = new BodyMemoryBudget();
