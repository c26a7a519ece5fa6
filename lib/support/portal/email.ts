/** The email carrying a sign-in code: automatic, so that no reply or bounce to it becomes a ticket. */
import { MailMessage } from '../../mail/mailer';
import { Site } from '../../wp/site';
import { senderFor } from '../outbound/addresses';
import { ConnectedSite } from '../sites/store';
import { PORTAL_LIMITS } from './limits';

export async function composeCodeEmail(site: Site, portal: ConnectedSite, email: string, code: string): Promise<MailMessage> {
  const minutes = PORTAL_LIMITS.codeTtlSeconds / 60;
  return {
    to: email,
    from: await senderFor(site),
    subject: `Your sign-in code for ${portal.name}: ${code}`,
    text: `Your sign-in code for ${portal.name} is:\n\n${code}\n\nIt is valid for ${minutes} minutes. If you did not ask for it, ignore this email.\n`,
    headers: { 'Auto-Submitted': 'auto-generated', 'X-Auto-Response-Suppress': 'All' },
  };
}
