/**
 * The demo's product changelog: one `svc_changelog` product with a few releases (`svc_release`
 * posts, post_parent = the product), written in the seed's transaction as the plugin stores them
 * (docs/changelogs.md), so /support/v1/changelogs and the feeds have something to show.
 */
import { Knex } from 'knex';
import { parseChangelog } from '../support/changelogs/parse';
import { PRODUCT_META, PRODUCT_POST_TYPE, RELEASE_META, RELEASE_POST_TYPE } from '../support/changelogs/store';
import { isPrerelease } from '../support/changelogs/version';
import { Database } from '../wp/db/database';
import { siteDates } from '../wp/dates';
import { sanitizeTitleWithDashes } from '../wp/formatting';
import { OptionStore } from '../wp/options';
import { addPostMeta, insertPost } from '../wp/posts';

const DEMO_CHANGELOG = `# Changelog

## [2.0.0] - 2026-11-02

The widget is now a web component that any page can embed.

### Added
- \`<help-desk-widget>\` element with a \`site-id\` attribute.
- Keyboard navigation in the search results.

### Removed
- The jQuery version of the widget.

## [2.0.0-beta.2] - 2026-10-20

### Fixed
- The widget's styles leaked into the page in Safari.

## [1.10.0] - 2026-09-14

### Added
- Suggested articles while a customer types the subject.

### Fixed
- Attachments over 5 MB failed without a message.

## [1.9.0] - 2026-08-01

### Changed
- The portal remembers the customer for 30 days.
`;

interface DemoChangelogContext {
  trx: Knex.Transaction;
  db: Database;
  options: OptionStore;
  home: string;
  now: number;
}

/** Inserts the demo product and its releases; returns the product's ID. */
export async function insertDemoChangelog({ trx, db, options, home, now }: DemoChangelogContext): Promise<number> {
  const productId = await insertPost(trx, db.tables, home, {
    post_type: PRODUCT_POST_TYPE, post_status: 'publish', post_name: 'help-desk-widget', post_title: 'Help Desk Widget', date: await siteDates(options, now),
  });
  await addPostMeta(trx, db.tables, productId, { [PRODUCT_META.type]: 'plugin', [PRODUCT_META.url]: `${home}/help-desk-widget/`, [PRODUCT_META.sourceKind]: 'auto' });
  for (const release of parseChangelog(DEMO_CHANGELOG).releases) {
    const id = await insertPost(trx, db.tables, home, {
      post_type: RELEASE_POST_TYPE, post_status: 'publish', post_parent: productId, post_title: release.version,
      post_name: sanitizeTitleWithDashes(release.version, 'save'), post_content: release.notes,
      date: await siteDates(options, Date.parse(`${release.date}T00:00:00Z`)),
    });
    await addPostMeta(trx, db.tables, id, {
      [RELEASE_META.version]: release.version, [RELEASE_META.stability]: isPrerelease(release.version) ? 'pre-release' : 'stable', [RELEASE_META.url]: release.url ?? '',
    });
  }
  return productId;
}
