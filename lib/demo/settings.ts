/**
 * The demo desk's `svc_settings`, as the plugin writes its settings page's defaults on activation, so
 * that `understudy option get svc_settings` and `option patch update` work on a fresh demo. Every
 * value is the default Understudy reads when the key is missing (docs/support-desk.md, docs/chat.md):
 * seeding them changes no behaviour. Chat stays off until a provider key is set.
 */
import { SETTINGS_OPTION } from '../support/settings';
import { OptionStore } from '../wp/options';

export const DEMO_SUPPORT_SETTINGS = {
  alerts_url: '',
  alerts_secret: '',
  alerts_preview: false,
  alerts_customer_replied: false,
  customer_can_resolve: true,
  customer_can_reopen: true,
  chat_enabled: false,
  chat_handoff: false,
  chat_base_url: 'https://api.openai.com/v1',
  chat_model: 'gpt-4o-mini',
  chat_api_key: '',
};

export async function seedDemoSettings(options: OptionStore): Promise<void> {
  await options.update(SETTINGS_OPTION, DEMO_SUPPORT_SETTINGS);
}
