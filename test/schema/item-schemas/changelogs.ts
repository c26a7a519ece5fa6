/** A changelog product and a release with typed changes. */
import { presentProduct, presentRelease } from '../../../lib/support/changelogs/present';
import { Product } from '../../../lib/support/changelogs/store';
import { changelogSchema } from '../../../schema/support/changelog';
import { releaseSchema } from '../../../schema/support/release';
import { Presented } from './presented';

export function presentChangelogSchemas(): Presented[] {
  const product = { postId: 30, slug: 'widget', name: 'Widget', type: 'plugin', url: 'https://example.org/widget' } as Product;
  const release = { version: '1.2.0', date: '2026-11-20', stability: 'stable', url: 'https://example.org/widget/1.2.0' } as const;
  const view = { summary: 'Faster.', changes: [{ type: 'fixed', text: 'Speed' }], html: '<ul><li>Speed</li></ul>' } as const;
  return [
    { schema: changelogSchema, value: presentProduct({ product, latest: '1.2.0', releases: 1 }, 'http://example.org') },
    { schema: releaseSchema, value: presentRelease(release, { ...view, changes: [...view.changes] }) },
  ];
}
