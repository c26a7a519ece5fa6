/** Who acts on tickets: an agent (`svc_work_tickets`) or a customer; agents may ask to see as the customer would. */
import { CurrentUser } from '../../wp/auth/current-user';

export interface Actor {
  userId: number;
  name: string;
  email: string;
  /** Holds `svc_work_tickets`. */
  agent: boolean;
  /** Holds `svc_manage`. */
  manager: boolean;
  /** An agent who sent `X-Svc-View: customer`: answers are exactly what the customer would get. */
  customerView: boolean;
  /** Set for a customer signed in to a connected site's portal (lib/support/portal/customer.ts). */
  portal?: PortalScope;
}

/**
 * A portal customer's reach: only tickets opened on that site (contract section 4), and the status
 * moves that site's settings allow instead of the desk-wide ones.
 */
export interface PortalScope {
  siteId: string;
  customerCanResolve: boolean;
  customerCanReopen: boolean;
}

export function actorOf(user: CurrentUser, viewHeader?: string): Actor {
  const agent = user.can('svc_work_tickets');
  return {
    userId: user.id,
    name: user.user?.display_name ?? '',
    email: user.user?.user_email ?? '',
    agent,
    manager: user.can('svc_manage'),
    customerView: agent && viewHeader?.trim().toLowerCase() === 'customer',
  };
}

/** Whether answers should show agent-only data (internal notes, deliveries, assignee). */
export function seesAgentData(actor: Actor): boolean {
  return actor.agent && !actor.customerView;
}
