/** Every route, admin-ajax action and page Understudy implements, registered in one place. */
import { AjaxRegistry } from '../lib/wp/ajax/dispatcher';
import { PageRegistry } from '../lib/wp/pages';
import { RestRegistry } from '../lib/wp/rest/registry';
import { registerFormRoutes } from './frm';
import { registerSupportRoutes } from './support';
import { emailConfirmationPage } from './wp/profile';
import { usersMe } from './wp/users';

/** `languages`: the languages installed beside WordPress, which users may choose (SiteConfig.languages). */
export function registerRoutes(rest: RestRegistry, ajax: AjaxRegistry, pages: PageRegistry, install: { languages: readonly string[] }): void {
  rest.register(usersMe(install.languages));
  pages.register(emailConfirmationPage);
  registerSupportRoutes(rest, pages);
  registerFormRoutes(rest, ajax, pages);
}
