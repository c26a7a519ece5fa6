/** The form service: its REST route and admin-ajax actions (its pages are mounted by lib/app.ts from ./pages). */
import { AjaxRegistry } from '../../lib/wp/ajax/dispatcher';
import { RestRegistry } from '../../lib/wp/rest/registry';
import { adminAction } from './admin-action';
import { formSubmitAction } from './form-submit';
import { formsRoute } from './forms';

export { formPages } from './pages';

export function registerFormRoutes(rest: RestRegistry, ajax: AjaxRegistry): void {
  rest.register(formsRoute);
  ajax.register(formSubmitAction);
  ajax.register(adminAction);
}
