/** `wp/v2/users/me`: who the caller is signed in as (the first route; it proves the stack end to end). */
import { WpError } from '../../lib/wp/errors';
import { ArgSchema } from '../../lib/wp/rest/args';
import { RouteDeclaration, allowAnyone } from '../../lib/wp/rest/route';
import { UserContext, presentUser } from '../../lib/wp/user-presenter';
import contextArg from '../../schema/wp/context-arg.json';

export const usersMe: RouteDeclaration = {
  namespace: 'wp/v2',
  route: '/users/me',
  endpoints: [
    {
      methods: ['GET'],
      // WP: anyone may ask; the handler answers rest_not_logged_in to a caller who is not signed in.
      permission: allowAnyone,
      args: { context: contextArg as ArgSchema },
      handler: async (req) => {
        const { user, caps } = req.user;
        if (!user) throw new WpError('rest_not_logged_in', 'You are not currently logged in.', 401);
        return presentUser(req.site, user, caps, req.params.context as UserContext);
      },
    },
  ],
};
