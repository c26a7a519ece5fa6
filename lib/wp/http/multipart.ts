/**
 * PHP's multipart/form-data reader (rfc1867), streamed: fields are kept in memory, files go straight
 * to temporary files as PHP's upload_tmp_dir does, so a large upload costs disk, not memory. A body
 * that breaks off keeps what was complete before the break, as PHP does, and says it was malformed.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import Busboy from 'busboy';
import { ClientAbortedError, PayloadTooLargeError, watchBodySize } from './read-body';
import { BodyMemoryHold, ServerBusyError } from './body-memory';
import { MAX_INPUT_VARS } from './php-query';

/** php.ini max_file_uploads: files past it are skipped. */
export const MAX_FILE_UPLOADS = 20;

/** An uploaded file from a multipart body, waiting in a temporary file until the request ends. */
export interface UploadedFile {
  field: string;
  filename: string;
  mimeType: string;
  size: number;
  /** The temporary file; removed once the answer is sent. */
  path: string;
}

export interface MultipartBody {
  /** Field names and values in the order they came, for phpArrayFromPairs(). */
  fields: Array<[string, string]>;
  files: UploadedFile[];
  /** The body could not be read to its end (no boundary, truncated part); what came before is kept. */
  malformed: boolean;
  /** Removes the temporary files. */
  dispose(): Promise<void>;
}

/**
 * Reads a multipart body within `limit` bytes, its bytes held in `hold` except the files' (on disk);
 * rejects with PayloadTooLargeError, ServerBusyError or ClientAbortedError.
 */
export function readMultipart(req: IncomingMessage, contentType: string, limit: number, hold: BodyMemoryHold): Promise<MultipartBody> {
  return new Promise((resolve, reject) => new MultipartReader(req, contentType, limit, hold, resolve, reject).start());
}

class MultipartReader {
  private readonly fields: Array<[string, string]> = [];
  /** In the order the parts came, whichever finishes writing first; a broken part leaves a hole. */
  private readonly files: Array<UploadedFile | null> = [];
  /** Every temporary file opened, finished or not, so that each is removed. */
  private readonly temporary: string[] = [];
  private readonly writes: Array<Promise<void>> = [];
  private readonly outputs: fs.WriteStream[] = [];
  private malformed = false;
  private settled = false;

  constructor(
    private readonly req: IncomingMessage,
    private readonly contentType: string,
    private readonly limit: number,
    private readonly hold: BodyMemoryHold,
    private readonly resolve: (body: MultipartBody) => void,
    private readonly reject: (err: Error) => void,
  ) {}

  start(): void {
    // Every byte counts against the body memory as it arrives; a file's bytes are given back as they go to disk.
    const stopWatching = watchBodySize(this.req, this.limit, (err) => this.fail(err), this.hold);
    let parser: ReturnType<typeof Busboy>;
    try {
      parser = Busboy({
        headers: { 'content-type': this.contentType },
        limits: { fields: MAX_INPUT_VARS, files: MAX_FILE_UPLOADS, parts: MAX_INPUT_VARS + MAX_FILE_UPLOADS, fieldSize: this.limit },
      });
    } catch {
      // PHP: a multipart type without a boundary fills nothing; the body is read and dropped.
      this.malformed = true;
      this.req.on('end', () => { stopWatching(); this.finish(); });
      this.req.resume();
      return;
    }
    // busboy names no field for a part without a name nor for `name=""` (its typings say string). PHP
    // registers no variable for either (it also stops reading at a part with no name at all; we go on).
    parser.on('field', (name: string | undefined, value) => {
      if (name) this.fields.push([name, value]);
    });
    parser.on('file', (field: string | undefined, stream, info) => this.saveFile(field ?? '', stream, info));
    parser.on('error', () => {
      this.malformed = true;
      this.req.unpipe(parser);
      this.req.resume();
      stopWatching();
      this.finish();
    });
    parser.on('close', () => { stopWatching(); this.finish(); });
    this.req.pipe(parser);
  }

  private saveFile(field: string, stream: Readable, info: { filename?: string; mimeType: string }): void {
    const file = path.join(os.tmpdir(), `understudy-upload-${randomBytes(12).toString('hex')}`);
    this.temporary.push(file);
    const out = fs.createWriteStream(file, { flags: 'wx', mode: 0o600 });
    this.outputs.push(out);
    const slot = this.files.push(null) - 1;
    let size = 0;
    let broken = false;
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      this.hold.give(chunk.length);
    });
    // A part cut off before its boundary is no file (PHP: UPLOAD_ERR_PARTIAL); the parser reports the body.
    stream.on('error', () => { broken = true; stream.unpipe(out); out.end(); });
    this.writes.push(new Promise<void>((done) => {
      out.on('close', () => {
        if (!broken) this.files[slot] = { field, filename: info.filename ?? '', mimeType: info.mimeType, size, path: file };
        done();
      });
      out.on('error', (err) => { stream.resume(); this.fail(err); done(); });
    }));
    stream.pipe(out);
  }

  private finish(): void {
    void Promise.all(this.writes).then(() => {
      if (this.settled) return;
      this.settled = true;
      const temporary = this.temporary;
      const files = this.files.filter((f): f is UploadedFile => f !== null);
      this.resolve({ fields: this.fields, files, malformed: this.malformed, dispose: () => removeAll(temporary) });
    });
  }

  private fail(err: Error): void {
    if (this.settled) return;
    this.settled = true;
    const stopped = err instanceof PayloadTooLargeError || err instanceof ServerBusyError || err instanceof ClientAbortedError;
    if (!stopped) this.req.resume();
    // Parts still being written will never end: close their files, then remove every one.
    for (const out of this.outputs) out.destroy();
    void Promise.all(this.writes).then(() => removeAll(this.temporary));
    this.reject(err);
  }
}

async function removeAll(files: string[]): Promise<void> {
  await Promise.all(files.map((f) => fs.promises.rm(f, { force: true })));
}
