/** What every ticket write needs from the site: the transaction, table names, home URL and the time. */
import { Knex } from 'knex';
import { unixSeconds } from '../../wp/clock';
import { siteDates } from '../../wp/dates';
import { WpError } from '../../wp/errors';
import { Site } from '../../wp/site';
import { MAX_FILES_PER_MESSAGE, cleanFilename, fileHead, removeAttachmentFiles, saveAttachmentFile, storedMimeType, uploadsDirOf } from './attachments';
import { IncomingFile } from './types';
import { WriteContext, insertAttachment } from './writes';

/**
 * Reads what a write needs from the site (home URL, site time) BEFORE its transaction opens: on SQLite
 * the transaction holds the only connection, so an option read that missed the cache inside it would
 * wait on itself. Every ticket write takes its context from here.
 */
export async function prepareWriteContext(site: Site): Promise<(trx: Knex.Transaction) => WriteContext & { nowSeconds: number }> {
  const now = site.clock.now();
  const home = await site.homeUrl();
  const dates = await siteDates(site.options, now);
  const nowSeconds = unixSeconds(site.clock);
  return (trx) => ({ trx, tables: site.db.tables, home, dates, nowSeconds });
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
export async function attachFiles(site: Site, ctx: WriteContext, messageId: number, authorId: number, files: IncomingFile[] | undefined): Promise<void> {
  const uploadsDir = uploadsDirOf(site.config);
  const written: string[] = [];
  try {
    for (const file of files ?? []) {
      const relative = await saveAttachmentFile(uploadsDir, file, site.clock.now());
      written.push(relative);
      await insertAttachment(ctx, {
        messageId, authorId, filename: cleanFilename(file.filename), mimeType: storedMimeType(await fileHead(file), file.mimeType), file: relative,
        contentId: file.contentId,
      });
    }
  } catch (err) {
    await removeAttachmentFiles(uploadsDir, written);
    throw err;
  }
  ctx.trx.executionPromise.catch(() => removeAttachmentFiles(uploadsDir, written));
}
