/**
 * A request body as PHP and WordPress see it: PHP fills $_POST (and $_FILES) only for a POST whose
 * Content-Type is form-encoded or multipart; WordPress reads a JSON body whatever the method.
 * Multipart bodies are streamed (files to disk); every other body is read whole within its limit.
 */
import type { IncomingMessage } from 'node:http';
import { MultipartBody, UploadedFile, readMultipart } from './multipart';
import { FORM_BODY_COUNT, PhpQueryValue, parsePhpQuery, phpArrayFromPairs } from './php-query';
import { readBody, refuseDeclaredSize } from './read-body';
import { BodyMemoryBudget, bodyMemory } from './body-memory';
import { addressKey } from './address-key';
import { clientIp } from './request-info';

/** WP's own default is PHP's post_max_size; 8 MiB matches a stock PHP install. */
export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;

export interface DecodedBody {
  /** PHP's $_POST: the fields of a form-encoded or multipart body of a POST request, else null. */
  form: Record<string, PhpQueryValue> | null;
  /** The raw bytes of a JSON body (any method), left to the caller to check and parse. */
  json: Buffer | null;
  /** PHP's $_FILES: the files of a multipart POST. */
  files: UploadedFile[];
}

export interface RequestBody extends DecodedBody {
  /** The bytes as sent; empty for a multipart body, which is streamed instead. */
  raw: Buffer;
  /** A multipart body that broke off or had no boundary: `form` and `files` hold what was complete. */
  malformed: boolean;
  /** Removes the uploaded files' temporary copies; call once the answer is sent. */
  dispose(): Promise<void>;
}

export interface BodyOptions {
  limit: number;
  /** Keep the bytes as they are, decoding nothing (signed webhooks). */
  keepRaw?: boolean;
  /** The body memory the bytes count against (default: the process's), in the visitor's share. */
  memory?: BodyMemoryBudget;
}

/**
 * Reads and decodes the body, its bytes held in the body memory until dispose(); rejects with
 * PayloadTooLargeError, ServerBusyError or ClientAbortedError.
 */
export async function readRequestBody(req: IncomingMessage, options: BodyOptions): Promise<RequestBody> {
  const contentType = req.headers['content-type'];
  refuseDeclaredSize(req, options.limit);
  const hold = (options.memory ?? bodyMemory).open(addressKey(clientIp(req)));
  try {
    if (!options.keepRaw && req.method === 'POST' && mediaType(contentType) === 'multipart/form-data') {
      const body = await readMultipart(req, contentType as string, options.limit, hold);
      return fromMultipart(body, hold.release);
    }
    const raw = await readBody(req, options.limit, hold);
    const decoded = options.keepRaw ? { form: null, json: null, files: [] } : decodeBody(raw, contentType, req.method);
    return { ...decoded, raw, malformed: false, dispose: async () => hold.release() };
  } catch (err) {
    hold.release();
    throw err;
  }
}

function fromMultipart(body: MultipartBody, release: () => void): RequestBody {
  return {
    form: phpArrayFromPairs(body.fields), json: null, files: body.files, raw: Buffer.alloc(0),
    malformed: body.malformed,
    dispose: async () => {
      release();
      await body.dispose();
    },
  };
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

/** Decodes a body read whole (any but a multipart POST, which readRequestBody streams). */
function decodeBody(raw: Buffer, contentType: string | undefined, method: string | undefined): DecodedBody {
  const json = isJsonContentType(contentType) ? raw : null;
  const type = mediaType(contentType);
  if (method !== 'POST' || !raw.length || type !== 'application/x-www-form-urlencoded') return { form: null, json, files: [] };
  return { form: parsePhpQuery(raw.toString('utf8'), FORM_BODY_COUNT), json, files: [] };
}
