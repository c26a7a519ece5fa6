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

/** The client went away before its body was complete: there is no one left to answer. */
export class ClientAbortedError extends Error {
  constructor() {
    super('The client closed the connection before the request body was complete.');
    this.name = 'ClientAbortedError';
  }
}

/** The whole body as bytes, or PayloadTooLargeError once it exceeds `limit`, or ClientAbortedError. */
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
    req.once('error', () => reject(new ClientAbortedError()));
  });
}

export interface DecodedBody {
  /** PHP's $_POST: the fields of a form-encoded or multipart body of a POST request, else null. */
  form: Record<string, PhpQueryValue> | null;
  /** The raw bytes of a JSON body (any method), left to the caller to check and parse. */
  json: Buffer | null;
  /** PHP's $_FILES: the files of a multipart POST. */
  files: UploadedFile[];
}

/** WP_REST_Request::get_content_type()['value']: the media type before `;`, lowercased and trimmed; null when none or no `/`. */
export function mediaType(contentType: string | undefined): string | null {
  if (!contentType) return null;
  const semicolon = contentType.indexOf(';');
  const value = (semicolon > 0 ? contentType.slice(0, semicolon) : contentType).toLowerCase().trim();
  return value.includes('/') ? value : null;
}

/** WP: wp_is_json_media_type() on the request's media type: `application/json`, `application/*+json`, `…json+oembed`. */
export function isJsonContentType(contentType: string | undefined): boolean {
  const type = mediaType(contentType);
  return type !== null && /(^|\s|,)application\/([\w!#$&-^.+]+\+)?json(\+oembed)?($|\s|;|,)/i.test(type);
}

/**
 * Decodes a body as PHP and WordPress see it: PHP fills $_POST (and $_FILES) only for a POST whose
 * Content-Type is form-encoded or multipart; WordPress reads a JSON body whatever the method.
 */
export async function decodeBody(raw: Buffer, contentType: string | undefined, method: string | undefined): Promise<DecodedBody> {
  const json = isJsonContentType(contentType) ? raw : null;
  const type = mediaType(contentType);
  if (method !== 'POST' || !raw.length) return { form: null, json, files: [] };
  if (type === 'application/x-www-form-urlencoded') return { form: parsePhpQuery(raw.toString('utf8')), json, files: [] };
  if (type === 'multipart/form-data') return { ...(await decodeMultipart(raw, contentType as string)), json };
  return { form: null, json, files: [] };
}

function decodeMultipart(raw: Buffer, contentType: string): Promise<Omit<DecodedBody, 'json'>> {
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
    parser.on('close', () => resolve({ form: parsePhpQuery(fields.join('&')), files }));
    parser.end(raw);
  });
}
