/** `wp/v2/users/me`: the signed-in user: read, edit or delete oneself, as WordPress 6.1 registers the route. */
import { WpError } from '../../lib/wp/errors';
import { RouteDeclaration, allowAnyone, endpoint } from '../../lib/wp/rest/route';
import { presentUser } from '../../lib/wp/rest/endpoints/users-me/present';
import { canDeleteCurrentUser, deleteCurrentUser } from '../../lib/wp/rest/endpoints/users-me/delete';
import { canUpdateCurrentUser, updateCurrentUser, userItemSchema } from '../../lib/wp/rest/endpoints/users-me/update';
import { argsForItemSchema, typedArgs } from '../../lib/wp/rest/item-schema';
import { contextArg } from '../../schema/wp/context-arg';

/** `languages`: the languages installed beside WordPress, which the `locale` argument lists after `en_US`. */
export const usersMe = (languages: readonly string[]): RouteDeclaration => ({
  namespace: 'wp/v2',
  route: '/users/me',
  endpoints: [
    endpoint({
      methods: ['GET'],
      // WP: anyone may ask; the handler answers rest_not_logged_in to a caller who is not signed in.
      permission: allowAnyone,
      args: typedArgs({ context: contextArg }),
      handler: async (req) => {
        const { user, caps } = req.user;
        if (!user) throw new WpError('rest_not_logged_in', 'You are not currently logged in.', 401);
        return presentUser(req.site, user, caps, req.params.context, { secure: req.secure });
      },
    }),
    {
      methods: ['POST', 'PUT', 'PATCH'],
      permission: canUpdateCurrentUser,
      // WP: get_endpoint_args_for_item_schema( WP_REST_Server::EDITABLE ).
      args: argsForItemSchema(userItemSchema(languages), 'edit'),
      handler: updateCurrentUser,
    },
    endpoint({
      methods: ['DELETE'],
      permission: canDeleteCurrentUser,
      args: typedArgs({
        force: { type: 'boolean', default: false, description: 'Required to be true, as users do not support trashing.' },
        reassign: { type: 'integer', description: "Reassign the deleted user's posts and links to this user ID.", required: true },
      }),
      handler: deleteCurrentUser,
    }),
  ],
  schema: () => userItemSchema(languages),
});
