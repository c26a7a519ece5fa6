/**
 * The demo site's published docs: a handful in two collections (`getting-started`, `account`), so a
 * new user can try GET /wp-json/support/v1/docs/search?q=pasword and the feedback route. Written as
 * the plugin writes docs (svc_doc posts, svc_doc_collection terms); a site that has docs gets none.
 */
import { forgetDocIndex } from '../support/docs/search-index';
import { DOC_POST_TYPE, NewDoc, insertDocs } from '../support/docs/store';
import { Site } from '../wp/site';

export const DEMO_DOCS: readonly NewDoc[] = [
  {
    slug: 'installing-understudy', title: 'Installing the help desk', collections: ['getting-started'],
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

/** Writes the demo docs unless the site has docs already; returns how many were written. */
export async function seedDemoDocs(site: Site): Promise<number> {
  if (await site.db.knex(site.db.tables.posts).where({ post_type: DOC_POST_TYPE }).first('ID')) return 0;
  return (await insertDocs(site, DEMO_DOCS, { invalidates: [forgetDocIndex] })).length;
}
