/**
 * Support-desk tests run on the oracle: a database made by real WordPress with 200 tickets and 621
 * messages in the storage map's shape, and users who sign in with the application passwords
 * WordPress issued (agent1, manager1 and admin are agents; customer1 and customer2 are customers).
 */
import request from 'supertest';
import { Express } from 'express';
import { credentials } from './oracle';

export type Login = 'admin' | 'agent1' | 'manager1' | 'customer1' | 'customer2' | 'editor1';

/** A supertest request signed in as `login` with the application password WordPress issued. */
export function as(app: Express, login: Login) {
  const auth = credentials.application_passwords[login].basic_auth_header as string;
  return {
    get: (path: string) => request(app).get(path).set('Authorization', auth),
    post: (path: string) => request(app).post(path).set('Authorization', auth),
    patch: (path: string) => request(app).patch(path).set('Authorization', auth),
    del: (path: string) => request(app).delete(path).set('Authorization', auth),
  };
}

export const API = '/wp-json/support/v1';

/** Ticket IDs of the oracle as stored: who owns what (customer2 owns some only by email). */
export async function ticketIdsOwnedBy(knex: import('knex').Knex, userId: number, email: string): Promise<number[]> {
  const rows = await knex('wp_posts as p').select('p.ID').where('p.post_type', 'svc_ticket')
    .where((q) => q.where('p.post_author', userId).orWhereExists((s) => s.select(knex.raw('1')).from('wp_postmeta as m')
      .whereRaw('m.post_id = p.ID').andWhere('m.meta_key', '_svc_customer_email').andWhere('m.meta_value', email)))
    .orderBy('p.ID');
  return rows.map((r: { ID: number }) => Number(r.ID));
}
