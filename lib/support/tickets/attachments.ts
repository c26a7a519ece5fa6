/**
 * Attachment files: kept in a private folder under the uploads folder (storage map), named so that
 * nothing user supplied decides the path, and typed by their bytes, never by their name: only real
 * PNG, JPEG, GIF, WebP and AVIF images may ever be shown inline.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { SiteConfig } from '../../wp/config';
import { WpError } from '../../wp/errors';
import { Site } from '../../wp/site';
import { IncomingFile } from './types';
import { WriteContext } from '../write';
import { NewAttachmentRows, NewPostsContext, insertAttachment } from './writes';

export const PRIVATE_FOLDER = 'svc-private';
export const MAX_FILES_PER_MESSAGE = 10;

export type InlineImageType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp' | 'image/avif';

export function uploadsDirOf(config: SiteConfig): string {
  return config.uploadsDir ?? path.join(config.dataDir, 'uploads');
}

/** The image type the bytes really are, or null. */
export function sniffImageType(bytes: Buffer): InlineImageType | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  const head = bytes.subarray(0, 12).toString('latin1');
  if (head.startsWith('GIF87a') || head.startsWith('GIF89a')) return 'image/gif';
  if (head.startsWith('RIFF') && head.slice(8, 12) === 'WEBP') return 'image/webp';
  // ISO-BMFF: a `ftyp` box whose major brand is avif (still image) or avis (sequence).
  if (head.slice(4, 8) === 'ftyp' && ['avif', 'avis'].includes(head.slice(8, 12))) return 'image/avif';
  return null;
}

/** wp_posts.post_mime_type is a varchar(100). */
const MIME_TYPE_MAX = 100;

/** The type stored for a file: its real image type, else the declared type when well formed, else octet-stream. */
export function storedMimeType(bytes: Buffer, declared: string): string {
  const image = sniffImageType(bytes);
  if (image) return image;
  const type = declared.toLowerCase().split(';')[0]?.trim() ?? '';
  // A declared image type the bytes do not bear out is not trusted; nor is one longer than
  // post_mime_type holds (varchar(100)), which MySQL would cut short.
  if (type.startsWith('image/') || type.length > MIME_TYPE_MAX || !/^[a-z]+\/[a-z0-9.+-]+$/.test(type)) return 'application/octet-stream';
  return type;
}

/** A filename safe to keep as a title and send in Content-Disposition. */
export function cleanFilename(name: string): string {
  const base = path.basename(name.replace(/\\/g, '/')).replace(/[\u0000-\u001f\u007f"<>|:*?]/g, '').trim();
  return (base || 'attachment').slice(0, 180);
}

/** Enough of a file's first bytes to sniff its type. */
export async function fileHead(file: IncomingFile): Promise<Buffer> {
  if ('data' in file) return file.data.subarray(0, 16);
  const handle = await fs.open(file.path, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(16), 0, 16, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * The file's content as a request key remembers it: SHA-256 of its base64 as a JSON string. An
 * upload on disk is read in chunks whose base64 is joined up at multiples of three bytes.
 */
export async function contentFingerprint(file: IncomingFile): Promise<string> {
  const hash = createHash('sha256').update('"');
  if ('data' in file) return hash.update(file.data.toString('base64')).update('"').digest('hex');
  let carry = Buffer.alloc(0);
  for await (const chunk of createReadStream(file.path)) {
    const bytes = Buffer.concat([carry, chunk as Buffer]);
    const whole = bytes.length - (bytes.length % 3);
    hash.update(bytes.subarray(0, whole).toString('base64'));
    carry = bytes.subarray(whole);
  }
  return hash.update(carry.toString('base64')).update('"').digest('hex');
}

/** Each file's name and content fingerprint, as a request key's stored request lists them. */
export async function fileFingerprints(files: IncomingFile[] | undefined): Promise<Array<[string, string]>> {
  return Promise.all((files ?? []).map(async (f): Promise<[string, string]> => [f.filename, await contentFingerprint(f)]));
}

/** Writes the file under `svc-private/YYYY/MM/`; returns the path relative to the uploads folder. */
export async function saveAttachmentFile(uploadsDir: string, file: IncomingFile, nowMs: number): Promise<string> {
  const date = new Date(nowMs);
  const folder = path.posix.join(PRIVATE_FOLDER, String(date.getUTCFullYear()), String(date.getUTCMonth() + 1).padStart(2, '0'));
  const ext = path.extname(cleanFilename(file.filename)).toLowerCase().replace(/[^.a-z0-9]/g, '').slice(0, 10);
  const relative = path.posix.join(folder, `${randomBytes(16).toString('hex')}${ext}`);
  const target = path.join(uploadsDir, relative);
  const write = () => ('data' in file ? fs.writeFile(target, file.data, { flag: 'wx' }) : fs.copyFile(file.path, target, fs.constants.COPYFILE_EXCL));
  await ensureFolder(uploadsDir, folder);
  try {
    await write();
  } catch (err) {
    // The folder was made by this process once and removed since (a cleanup, a restore): again.
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    readyFolders.clear();
    await ensureFolder(uploadsDir, folder);
    await write();
  }
  return relative;
}

/** Folders this process has made ready: a busy mailbox's files cost one write each, not five calls. */
const readyFolders = new Set<string>();

async function ensureFolder(uploadsDir: string, folder: string): Promise<void> {
  const full = path.join(uploadsDir, folder);
  if (readyFolders.has(full)) return;
  await ensurePrivateFolder(uploadsDir);
  await fs.mkdir(full, { recursive: true });
  readyFolders.add(full);
}

/** Reads a stored file; a path that leaves the private folder is refused. */
export async function readAttachmentFile(uploadsDir: string, relative: string): Promise<Buffer | null> {
  const full = privatePath(uploadsDir, relative);
  try {
    return full ? await fs.readFile(full) : null;
  } catch {
    return null;
  }
}

/** Whether a stored file is there (without reading it); a path that leaves the private folder is not. */
export async function attachmentFileExists(uploadsDir: string, relative: string): Promise<boolean> {
  const full = privatePath(uploadsDir, relative);
  return full !== null && (await fs.stat(full).then((s) => s.isFile(), () => false));
}

function privatePath(uploadsDir: string, relative: string): string | null {
  const root = path.resolve(uploadsDir, PRIVATE_FOLDER);
  const full = path.resolve(uploadsDir, relative);
  return full.startsWith(root + path.sep) ? full : null;
}

export async function removeAttachmentFiles(uploadsDir: string, relatives: string[]): Promise<void> {
  await Promise.all(relatives.map((r) => fs.rm(path.join(uploadsDir, r), { force: true })));
}

/** Apache honours the .htaccess; the empty index stops listings; nginx needs a `deny` rule (docs). */
async function ensurePrivateFolder(uploadsDir: string): Promise<void> {
  const folder = path.join(uploadsDir, PRIVATE_FOLDER);
  await fs.mkdir(folder, { recursive: true });
  await writeOnce(path.join(folder, '.htaccess'), 'Require all denied\nDeny from all\n');
  await writeOnce(path.join(folder, 'index.php'), '<?php // Silence is golden.\n');
}

async function writeOnce(file: string, content: string): Promise<void> {
  try {
    await fs.writeFile(file, content, { flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
}

export function checkFileCount(files: IncomingFile[] | undefined): void {
  if ((files?.length ?? 0) > MAX_FILES_PER_MESSAGE) {
    throw new WpError('svc_too_many_files', `A message can carry at most ${MAX_FILES_PER_MESSAGE} files.`, 400);
  }
}

/**
 * Saves a message's files and their attachment rows. Files written by a transaction that then fails
 * are removed again, so a refused request leaves nothing behind.
 */
export async function attachFiles(site: Site, ctx: NewPostsContext, messageId: number, authorId: number, files: IncomingFile[] | undefined): Promise<void> {
  for (const file of await saveFiles(site, ctx, files)) await insertAttachment(ctx, { messageId, authorId, ...file });
}

/** A file saved for an attachment row: what the row records of it. */
export type SavedFile = Pick<NewAttachmentRows, 'filename' | 'mimeType' | 'file' | 'contentId'>;

/** Saves files for rows that `ctx`'s transaction writes; if it fails, they are removed again. */
export async function saveFiles(site: Site, ctx: WriteContext, files: IncomingFile[] | undefined): Promise<SavedFile[]> {
  const uploadsDir = uploadsDirOf(site.config);
  const saved: SavedFile[] = [];
  try {
    for (const file of files ?? []) {
      const relative = await saveAttachmentFile(uploadsDir, file, site.clock.now());
      saved.push({ filename: cleanFilename(file.filename), mimeType: storedMimeType(await fileHead(file), file.mimeType), file: relative, contentId: file.contentId });
    }
  } catch (err) {
    await removeAttachmentFiles(uploadsDir, saved.map((f) => f.file));
    throw err;
  }
  ctx.trx.executionPromise.catch(() => removeAttachmentFiles(uploadsDir, saved.map((f) => f.file)));
  return saved;
}
