/**
 * Reading a request body within a size limit. A body that declares a larger Content-Length is
 * refused before any of it is read; one that grows past the limit while streaming is cut off there.
 */
import type { IncomingMessage } from 'node:http';
import Busboy from 'busboy';
import { WpError } from '../errors';
import type { UploadedFile } from '../rest/route';
import { PhpQueryValue, parsePhpQuery } from './php-query';

export class PayloadTooLargeError extends WpError {
  constructor(limit: number) {
    super('rest_payload_too_large', `The request body is larger than this endpoint accepts (${limit} bytes).`, 413, { max_bytes: limit });
  }
}

/** The whole body as bytes, or PayloadTooLargeError once it exceeds `limit`. */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(new PayloadTooLargeError(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        req.pause();
        reject(new PayloadTooLargeError(limit));
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', reject);
  });
}

export interface DecodedBody {
  /** Fields of a form-encoded or multipart body ($_POST). */
  form: Record<string, PhpQueryValue> | null;
  /** The text of a JSON body, left to the caller to parse (invalid JSON is reported after routing). */
  jsonText: string | null;
  files: UploadedFile[];
}

/** WP: content types whose body is JSON: `application/json` and `application/*+json`. */
export function isJsonContentType(contentType: string | undefined): boolean {
  return /^application\/([\w!#$&.^-]+\+)?json\b/i.test(contentType ?? '');
}

/** Decodes a body by its content type, as PHP fills $_POST and WordPress reads JSON. */
export async function decodeBody(raw: Buffer, contentType: string | undefined): Promise<DecodedBody> {
  const type = (contentType ?? '').toLowerCase();
  if (isJsonContentType(type)) return { form: null, jsonText: raw.toString('utf8'), files: [] };
  if (type.startsWith('multipart/form-data')) return decodeMultipart(raw, contentType as string);
  if (!raw.length) return { form: null, jsonText: null, files: [] };
  if (type === '' || type.startsWith('application/x-www-form-urlencoded')) {
    return { form: parsePhpQuery(raw.toString('utf8')), jsonText: null, files: [] };
  }
  return { form: null, jsonText: null, files: [] };
}

function decodeMultipart(raw: Buffer, contentType: string): Promise<DecodedBody> {
  return new Promise((resolve, reject) => {
    const fields: string[] = [];
    const files: UploadedFile[] = [];
    let parser: ReturnType<typeof Busboy>;
    try {
      parser = Busboy({ headers: { 'content-type': contentType } });
    } catch (err) {
      reject(new WpError('rest_invalid_multipart', 'The multipart body could not be read.', 400));
      return;
    }
    parser.on('field', (name, value) => fields.push(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`));
    parser.on('file', (field, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => files.push({ field, filename: info.filename ?? '', mimeType: info.mimeType, data: Buffer.concat(chunks) }));
    });
    parser.on('error', () => reject(new WpError('rest_invalid_multipart', 'The multipart body could not be read.', 400)));
    parser.on('close', () => resolve({ form: parsePhpQuery(fields.join('&')), jsonText: null, files }));
    parser.end(raw);
  });
}
