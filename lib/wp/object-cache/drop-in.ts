/**
 * Recognises an `object-cache.php` drop-in by its file header, the way WordPress reads plugin headers
 * (get_file_data()): only the first 8 KB, a `Name: value` line anywhere in them, after optional
 * comment characters, the value trimmed of spaces and a trailing `*\/` or `?>`.
 */
import fs from 'node:fs';

const HEADER_BYTES = 8 * 1024;

export interface DropInHeader {
  name?: string;
  uri?: string;
  version?: string;
}

export type KnownDropIn = 'redis' | 'memcached';

/** The header of `file`'s first 8 KB; throws when the file cannot be read. */
export function readDropInHeader(file: string): DropInHeader {
  const fd = fs.openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(HEADER_BYTES);
    const read = fs.readSync(fd, buffer, 0, HEADER_BYTES, 0);
    return dropInHeader(buffer.subarray(0, read).toString('utf8'));
  } finally {
    fs.closeSync(fd);
  }
}

export function dropInHeader(text: string): DropInHeader {
  const source = text.replace(/\r\n?/g, '\n');
  return { name: headerField(source, 'Plugin Name'), uri: headerField(source, 'Plugin URI'), version: headerField(source, 'Version') };
}

/** Which drop-in the header names: the Redis Object Cache plugin's, Automattic's memcached, or neither. */
export function knownDropIn(header: DropInHeader): KnownDropIn | undefined {
  const name = header.name?.toLowerCase();
  if (name === 'redis object cache drop-in') return 'redis';
  // "Memcached" alone is a common name; the plugin's directory address tells Automattic's apart.
  if (name === 'memcached' && /wordpress\.org\/plugins\/memcached\/?$/i.test(header.uri ?? '')) return 'memcached';
  return undefined;
}

function headerField(source: string, field: string): string | undefined {
  const escaped = field.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`^(?:[ \\t]*<\\?php)?[ \\t/*#@]*${escaped}:(.*)$`, 'mi').exec(source);
  const value = match?.[1].replace(/\s*(?:\*\/|\?>).*$/, '').trim();
  return value ? value : undefined;
}
