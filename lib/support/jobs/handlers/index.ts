/** The job kinds the support desk runs, and their handlers. */
import { JobHandler } from '../../../jobs/handler';
import { emailDeliveryHandler } from './email-delivery';
import { portalCodeHandler } from './portal-code';
import { teamAlertHandler } from './team-alert';

export interface HandlerOptions {
  /** How long an alert's receiver gets to answer (default 10 s). */
  alertTimeoutMs?: number;
}

export function supportJobHandlers(options: HandlerOptions = {}): Record<string, JobHandler> {
  return {
    team_alert: teamAlertHandler({ timeoutMs: options.alertTimeoutMs }),
    email_delivery: emailDeliveryHandler,
    portal_code_email: portalCodeHandler,
  };
}
