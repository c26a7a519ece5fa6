/** The demo site's content (fixtures/demo/site.json) and its shape. */
import demo from '../../fixtures/demo/site.json';

export interface DemoUser {
  login: string;
  email: string;
  first_name: string;
  last_name: string;
  role: string;
  /** The sign-in password: a public demo value, printed at start-up. */
  password: string;
  registered_days_ago: number;
  application_password: { name: string; uuid: string; password: string };
}

/** A ticket's customer: a demo user, or someone without an account (name and email only). */
export type DemoCustomer = { user: string } | { name: string; email: string };

export interface DemoMessage {
  /** `customer` (the ticket's customer) or the login of a demo user. */
  author: string;
  hours_ago: number;
  body: string;
  /** An internal note (`private`), seen by agents only. */
  internal?: boolean;
}

export interface DemoTicket {
  subject: string;
  status: string;
  priority: string;
  source: string;
  customer: DemoCustomer;
  /** Login of the assigned agent, or null for an unassigned ticket. */
  assignee: string | null;
  /** When the ticket was resolved (its last activity), for resolved tickets. */
  resolved_hours_ago?: number;
  messages: DemoMessage[];
}

export interface DemoFixture {
  title: string;
  users: DemoUser[];
  tickets: DemoTicket[];
}

/** The demo content in fixtures/demo/site.json. */
export const demoFixture: DemoFixture = demo as DemoFixture;
