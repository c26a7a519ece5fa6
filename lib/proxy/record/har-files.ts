/**
 * HAR 1.2 files written one entry at a time and rotated: a file is closed (and becomes valid JSON)
 * once it holds `maxEntries` entries or `maxFileBytes` bytes; beyond `maxFiles` files the oldest is
 * deleted, so a recording never uses more than about maxFiles × maxFileBytes of disk. Files are named
 * `recording-<start>-<seq>.har` so that name order is recording order.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface HarFilesOptions {
  dir: string;
  maxFileBytes: number;
  maxEntries: number;
  maxFiles: number;
}

const FOOTER = '\n]}}\n';

export class HarFiles {
  private stream: fs.WriteStream | null = null;
  private file = '';
  private bytes = 0;
  private entries = 0;
  private seq = 0;
  private readonly stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
  /** Files of this recording, oldest first (older recordings in the folder are left alone). */
  private readonly written: string[] = [];
  /** The open file's write error (a full disk): appends fail until the next file. */
  private failure: Error | null = null;
  /** Entries and bytes written in all, for the progress line. */
  totalEntries = 0;
  totalBytes = 0;

  constructor(private readonly options: HarFilesOptions) {
    fs.mkdirSync(options.dir, { recursive: true });
  }

  /** Bytes the writer has been handed but not yet flushed to the file. */
  get buffered(): number {
    return this.stream?.writableLength ?? 0;
  }

  /** Appends one entry (its JSON); resolves when the stream can take more. */
  async append(entryJson: string): Promise<void> {
    if (!this.stream || this.entries >= this.options.maxEntries || this.bytes + entryJson.length > this.options.maxFileBytes) await this.rotate();
    if (this.failure) {
      const failure = this.failure;
      this.stream = null; // CASE: the next append starts a new file, which may succeed (space was freed).
      this.failure = null;
      throw failure;
    }
    const text = `${this.entries ? ',\n' : ''}${entryJson}`;
    this.entries++;
    this.bytes += Buffer.byteLength(text);
    this.totalEntries++;
    this.totalBytes += Buffer.byteLength(text);
    const stream = this.stream as fs.WriteStream;
    if (!stream.write(text)) await drainedOrFailed(stream);
  }

  /** Closes the open file (valid HAR from then on). */
  async close(): Promise<void> {
    await this.finish();
  }

  /** Paths of this recording's files still on disk. */
  get files(): string[] {
    return [...this.written];
  }

  private async rotate(): Promise<void> {
    await this.finish();
    this.seq++;
    this.file = path.join(this.options.dir, `recording-${this.stamp}-${String(this.seq).padStart(6, '0')}.har`);
    this.stream = fs.createWriteStream(this.file, { flags: 'wx' });
    this.stream.on('error', (err) => { this.failure = err; });
    const header = `{"log":{"version":"1.2","creator":{"name":"Understudy proxy","version":"1"},"comment":"recorded by understudy proxy --record; secrets replaced by identity placeholders","entries":[\n`;
    this.stream.write(header);
    this.bytes = Buffer.byteLength(header) + FOOTER.length;
    this.entries = 0;
    this.written.push(this.file);
    while (this.written.length > this.options.maxFiles) fs.rmSync(this.written.shift() as string, { force: true });
  }

  private async finish(): Promise<void> {
    const stream = this.stream;
    if (!stream) return;
    this.stream = null;
    if (stream.destroyed) return;
    await new Promise<void>((resolve) => {
      stream.once('error', () => resolve());
      stream.end(FOOTER, () => resolve());
    });
  }
}

/** Waits until the stream takes more, or fails (then the next append reports the failure). */
function drainedOrFailed(stream: fs.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done).off('error', done);
      resolve();
    };
    stream.on('drain', done).on('error', done);
  });
}
