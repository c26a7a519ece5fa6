/**
 * The demo site's published docs: a handful in two collections (`getting-started`, `account`), so a
 * new user can try GET /wp-json/support/v1/docs/search?q=pasword and the feedback route. Written in
 * the seed's transaction as the plugin stores docs (svc_doc posts, svc_doc_collection terms; docs/docs.md).
 */
import { Knex } from 'knex';
import { NewDoc, writeDocs } from '../support/docs/store';
import { Database } from '../wp/db/database';
import { siteDates } from '../wp/dates';
import { OptionStore } from '../wp/options';

export const DEMO_DOCS: readonly NewDoc[] = [
  {
    slug: 'installing-the-help-desk', title: 'Installing the help desk', collections: ['getting-started'],
    content: '<!-- wp:paragraph --><p>Installation takes a minute: upload the plugin, activate it and open <strong>Support &rarr; Settings</strong>.</p><!-- /wp:paragraph -->',
  },
  {
    slug: 'connecting-a-mailbox', title: 'Connecting a mailbox', collections: ['getting-started'],
    content: '<p>Forward your support address to the mailbox address shown under Mailboxes. Replies go out from the same address.</p>',
  },
  {
    slug: 'inviting-agents', title: 'Inviting agents', collections: ['getting-started'],
    content: '<p>Give teammates the Support Agent role; managers can also change settings.</p>',
  },
  {
    slug: 'password-reset', title: 'Password reset', collections: ['account'],
    excerpt: 'Forgot your password? Reset it from the sign-in page.',
    content: '<p>Click &ldquo;Lost your password?&rdquo; on the sign-in page and follow the link we email you. [note]The link works for 24 hours.[/note]</p>',
  },
  {
    slug: 'two-factor-authentication', title: 'Two-factor authentication', collections: ['account'],
    content: '<p>Protect your account with a one-time code from an authenticator app.</p>',
  },
  {
    slug: 'application-passwords', title: 'Application passwords for scripts', collections: ['account'],
    content: '<p>Scripts and integrations sign in with an application password over HTTP Basic, never with your own password.</p>',
  },
];

export interface DemoDocsContext {
  trx: Knex.Transaction;
  db: Database;
  options: OptionStore;
  home: string;
  now: number;
}

/** Writes the demo docs in the seed's transaction; returns their IDs. */
export async function insertDemoDocs({ trx, db, options, home, now }: DemoDocsContext): Promise<number[]> {
  return writeDocs(trx, db, home, await siteDates(options, now), DEMO_DOCS);
}
