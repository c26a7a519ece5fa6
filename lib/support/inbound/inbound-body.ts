/**
 * What an automation tool posted to the inbound route: the raw message (`message/rfc822`,
 * `text/plain`), or fields as JSON, form-encoded or multipart, which providers.ts maps to an email.
 * A body without a Content-Type is taken as JSON when it looks like an object, else as a raw message.
 */
import { isJsonContentType, mediaType } from '../../wp/http/body';
import { invalidFields, missingFields } from './errors';
import { PostedForm, readMultipart, readUrlencoded } from './form-body';
import { InboundPayload, fieldsFromRecord } from './providers';

const RAW_TYPES = ['message/rfc822', 'text/plain'];

/** The posted message, or a 422 naming what is missing or unreadable. */
export function readInboundBody(body: Buffer, contentType: string | undefined): InboundPayload {
  const type = mediaType(contentType);
  if (type === null) return body.subarray(0, 64).toString('utf8').trimStart().startsWith('{') ? fromJson(body) : rawMessage(body);
  if (RAW_TYPES.includes(type)) return rawMessage(body);
  if (isJsonContentType(contentType)) return fromJson(body);
  if (type === 'application/x-www-form-urlencoded') return fromForm(readUrlencoded(body));
  if (type === 'multipart/form-data') return fromForm(readMultipart(body, contentType as string));
  throw invalidFields(['content-type'], `Unsupported Content-Type ${type}: send message/rfc822, text/plain, JSON, or form fields.`);
}

function rawMessage(body: Buffer): InboundPayload {
  if (!body.toString('latin1').trim()) throw missingFields(['message']);
  return { kind: 'raw', raw: body, shape: 'raw' };
}

function fromJson(body: Buffer): InboundPayload {
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    throw invalidFields(['body'], 'The body is not valid JSON.');
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw invalidFields(['body'], 'The JSON body must be an object of email fields.');
  }
  return fieldsFromRecord(value as Record<string, unknown>, { files: [], bytes: {} });
}

function fromForm(form: PostedForm): InboundPayload {
  return fieldsFromRecord(form.fields, { files: form.files, bytes: form.fieldBytes });
}
