/**
 * The demo site's contact form, published, so that a new user finds a form to embed on the front
 * page (`/frm/embed/contact`) and can post to admin-ajax.php's `frm_form_submit`. Written in the
 * seed's transaction as the form plugin stores forms (docs/forms.md).
 */
import { Knex } from 'knex';
import { writeForm } from '../forms/store';
import { Database } from '../wp/db/database';
import { siteDates } from '../wp/dates';
import { OptionStore } from '../wp/options';

const CONTACT_MARKUP = [
  '<p><label for="frm-name">Name</label> <input id="frm-name" type="text" name="name" /></p>',
  '<p><label for="frm-email">Email</label> <input id="frm-email" type="email" name="email" /></p>',
  '<p><label for="frm-message">Message</label> <textarea id="frm-message" name="message"></textarea></p>',
  '<p><button type="submit">Send</button></p>',
].join('\n');

export interface DemoFormContext {
  trx: Knex.Transaction;
  db: Database;
  options: OptionStore;
  home: string;
  now: number;
}

/** Writes the demo's contact form (submissions kept, name and email required); returns its ID. */
export async function insertDemoForm({ trx, db, options, home, now }: DemoFormContext, authorId: number): Promise<number> {
  return writeForm(trx, db, { home, date: await siteDates(options, now), authorId }, {
    title: 'Contact', slug: 'contact', markup: CONTACT_MARKUP,
    settings: { save_submissions: true, required_fields: 'name,email,message', email_fields: 'email' },
  });
}
