/** Where attachment files go: the private folder with its guards, made again if it was removed. */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readAttachmentFile, saveAttachmentFile } from '../../../../lib/support/tickets/attachments';

describe('attachment files on disk', () => {
  let uploads: string;
  beforeEach(() => { uploads = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-files-')); });
  afterEach(() => fs.rmSync(uploads, { recursive: true, force: true }));

  const save = (text: string) => saveAttachmentFile(uploads, { filename: 'note.txt', mimeType: 'text/plain', data: Buffer.from(text) }, Date.UTC(2026, 10, 25));

  it('writes under svc-private/YYYY/MM with the guard files, and reads back', async () => {
    const relative = await save('first');
    assert.match(relative, /^svc-private\/2026\/11\/[0-9a-f]{32}\.txt$/);
    assert.equal(String(await readAttachmentFile(uploads, relative)), 'first');
    assert.ok(fs.existsSync(path.join(uploads, 'svc-private', '.htaccess')));
    assert.ok(fs.existsSync(path.join(uploads, 'svc-private', 'index.php')));
  });

  it('makes the folder and its guards again when it was removed after the first file', async () => {
    await save('first');
    fs.rmSync(path.join(uploads, 'svc-private'), { recursive: true });
    const relative = await save('second');
    assert.equal(String(await readAttachmentFile(uploads, relative)), 'second');
    assert.ok(fs.existsSync(path.join(uploads, 'svc-private', '.htaccess')));
  });
});
