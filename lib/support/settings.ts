/**
 * The support desk's settings: one serialized option, `svc_settings` (storage map). Keys the map fixes
 * are read here with their defaults; docs/support-desk.md lists every key.
 */
import { OptionStore } from '../wp/options';
import { PlainValue, phpFlag } from '../wp/php';

export const SETTINGS_OPTION = 'svc_settings';

export interface SupportSettings {
  alertsUrl: string;
  alertsSecret: string;
  alertsPreview: boolean;
  alertsCustomerReplied: boolean;
  customerCanResolve: boolean;
  customerCanReopen: boolean;
}

export async function readSettings(options: OptionStore): Promise<SupportSettings> {
  const raw = await options.getPlain(SETTINGS_OPTION, {});
  const value = (raw && typeof raw === 'object' ? raw : {}) as Record<string, PlainValue | undefined>;
  return {
    alertsUrl: text(value.alerts_url),
    alertsSecret: text(value.alerts_secret),
    alertsPreview: phpFlag(value.alerts_preview, false),
    alertsCustomerReplied: phpFlag(value.alerts_customer_replied, false),
    // A help desk's customers can usually close their own ticket and reopen it by asking again.
    customerCanResolve: phpFlag(value.customer_can_resolve, true),
    customerCanReopen: phpFlag(value.customer_can_reopen, true),
  };
}

/** Why an alert for `event` is not sent under these settings, or null when it is. */
export function alertSkipReason(event: string, settings: SupportSettings): string | null {
  if (!settings.alertsUrl) return 'no team-alert URL is set';
  if (event === 'customer_replied' && !settings.alertsCustomerReplied) return 'customer_replied alerts are off';
  return null;
}

/** A stored setting as text ('' when absent). */
export function text(value: unknown): string {
  return typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);
}
