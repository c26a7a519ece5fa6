/** `GET /wp-json/frm/forms`: every form, for the editor block's form selector (users with `edit_forms`). */
import { listForms } from '../../lib/forms/store';
import { RouteDeclaration, requireCapability } from '../../lib/wp/rest/route';
import formListItem from '../../schema/frm/form-list-item.json';

export const formsRoute: RouteDeclaration = {
  // No version segment: the plugin family registered its route this way and block editors call it so.
  namespace: 'frm',
  route: '/forms',
  schema: () => formListItem,
  endpoints: [
    {
      methods: ['GET'],
      // WP: a false permission callback is rest_forbidden, 401 signed out and 403 signed in.
      permission: requireCapability('edit_forms'),
      handler: async (req) => (await listForms(req.site.db)).map(({ id, title, slug }) => ({ ID: id, title, slug })),
    },
  ],
};
