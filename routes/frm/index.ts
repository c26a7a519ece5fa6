/** The form service: its REST route, admin-ajax actions and pages (the script and embeddable forms). */
import { AjaxRegistry } from '../../lib/wp/ajax/dispatcher';
import { PageRegistry } from '../../lib/wp/pages';
import { RestRegistry } from '../../lib/wp/rest/registry';
import { adminAction } from './admin-action';
import { formSubmitAction } from './form-submit';
import { formsRoute } from './forms';
import { formEmbedPage, formFragmentPage, formScriptPage } from './pages';

export function registerFormRoutes(rest: RestRegistry, ajax: AjaxRegistry, pages: PageRegistry): void {
  rest.register(formsRoute);
  ajax.register(formSubmitAction);
  ajax.register(adminAction);
  for (const page of [formScriptPage, formEmbedPage, formFragmentPage]) pages.register(page);
}
