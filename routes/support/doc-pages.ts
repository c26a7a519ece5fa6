/**
 * `GET /docs/<slug>/`: a published doc's page on the standalone site (lib/support/docs/page.ts), where
 * docPermalink() points under pretty permalinks; the query forms (`/?svc_doc=<slug>`,
 * `/?post_type=svc_doc&p=<ID>`) are answered by the front page (lib/front-page.ts).
 */
import { docPage } from '../../lib/support/docs/page';
import { PageDeclaration } from '../../lib/wp/pages';

export const docPageBySlug: PageDeclaration = {
  path: '/docs/:slug',
  etag: true,
  handler: async (req) => docPage(req.site, { slug: req.params.slug ?? '' }),
};
