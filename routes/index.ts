/** Every route and admin-ajax action Understudy implements, registered in one place. */
import { AjaxRegistry } from '../lib/wp/ajax/dispatcher';
import { RestRegistry } from '../lib/wp/rest/registry';
import { registerFormRoutes } from './frm';
import { registerSupportRoutes } from './support';
import { usersMe } from './wp/users';

export function registerRoutes(rest: RestRegistry, ajax: AjaxRegistry): void {
  rest.register(usersMe);
  registerSupportRoutes(rest);
  registerFormRoutes(rest, ajax);
}
