/**
 * A small help center for the chat tests: docs with headings (so they split into passages), in a few
 * collections, and questions a visitor would ask with the doc that answers each.
 */
import { NewDoc } from '../../lib/support/docs/store';

export const CHAT_DOCS: NewDoc[] = [
  {
    slug: 'reset-password', title: 'Resetting your password', collections: ['account'],
    content: '<p>Forgot your password? You can reset it yourself.</p><h2 id="from-sign-in">From the sign-in page</h2><p>Click <em>Lost your password?</em> under the sign-in form, enter your email address and follow the link we email you. The link works for 24 hours.</p><h2>If no email arrives</h2><p>Check your spam folder, then ask us to resend the reset email.</p>',
  },
  {
    slug: 'two-factor', title: 'Two-factor authentication', collections: ['account'],
    content: '<p>Protect your account with a second step at sign-in.</p><h2>Turning it on</h2><p>Open Profile, choose Security and scan the QR code with an authenticator app such as Google Authenticator.</p><h2>Lost phone</h2><p>Use one of your backup codes to sign in, then set up the authenticator again.</p>',
  },
  {
    slug: 'invoices', title: 'Invoices and receipts', collections: ['billing'],
    content: '<p>Every payment produces an invoice.</p><h2>Downloading an invoice</h2><p>Go to Billing, then History, and click the PDF icon next to the payment.</p><h2>Changing the billing address</h2><p>The company name and VAT number printed on invoices are edited under Billing settings.</p>',
  },
  {
    slug: 'refunds', title: 'Refund policy', collections: ['billing'],
    content: '<p>We refund any plan within 30 days of purchase, no questions asked.</p><h2>How to ask for a refund</h2><p>Write to support with your order number. Refunds reach your card within 5 to 10 business days.</p>',
  },
  {
    slug: 'cancel-subscription', title: 'Cancelling your subscription', collections: ['billing'],
    content: '<p>You can cancel at any time from Billing, Subscription, Cancel plan. Your plan stays active until the end of the paid period; nothing renews afterwards.</p>',
  },
  {
    slug: 'install-plugin', title: 'Installing the plugin', collections: ['setup'],
    content: '<p>Download the zip file from your account.</p><h2>Upload</h2><p>In WordPress, go to Plugins, Add New, Upload Plugin, choose the zip and click Install Now, then Activate.</p><h2>License key</h2><p>Paste the license key from your account under Settings, License to receive updates.</p>',
  },
  {
    slug: 'widget-colors', title: 'Customizing widget colors', collections: ['setup'],
    content: '<p>The widget uses your brand colour.</p><h2>Changing the colour</h2><p>Under Appearance, pick the accent colour with the colour picker, or type a hex value such as #ff6600. The launcher button and links follow it.</p>',
  },
  {
    slug: 'export-data', title: 'Exporting your data', collections: ['account'],
    content: '<p>Download everything we hold about your account.</p><h2>CSV export</h2><p>Open Tools, Export, choose the date range and click Export CSV. Large exports are emailed to you when ready.</p>',
  },
];

/** Questions and the slug of the doc that answers each. */
export const CHAT_QUESTIONS: Array<[string, string]> = [
  ['How do I reset my password?', 'reset-password'],
  ['I forgot my password, what now?', 'reset-password'],
  ['The password reset email never arrived', 'reset-password'],
  ['How can I turn on two-factor authentication?', 'two-factor'],
  ['I lost my phone with the authenticator app', 'two-factor'],
  ['Where can I download my invoices?', 'invoices'],
  ['How do I change the VAT number on my invoice?', 'invoices'],
  ['Can I get a refund?', 'refunds'],
  ['How long does a refund take to reach my card?', 'refunds'],
  ['How do I cancel my subscription?', 'cancel-subscription'],
  ['How do I install the plugin in WordPress?', 'install-plugin'],
  ['Where do I paste my license key?', 'install-plugin'],
  ['Can I change the widget colour to match my brand?', 'widget-colors'],
  ['How do I export my data as CSV?', 'export-data'],
  ['Is there a way to download all my account data?', 'export-data'],
];

/** Questions the corpus says nothing about. */
export const OFF_TOPIC = ['What is the capital of Mongolia?', 'Who won the football world cup in 1998?'];
