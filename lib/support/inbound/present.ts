/** What the mail webhooks answer with 202 (schema/support/inbound-receipt.ts): an allowlist of the receipt. */
import { Receipt } from './store';

export function presentReceipt(receipt: Receipt): Record<string, unknown> {
  const body: Record<string, unknown> = { receipt_id: receipt.receiptId, outcome: receipt.outcome, ticket_id: receipt.ticketId };
  // Only an ignored message has a reason: every other answer keeps the contract's three fields.
  if (receipt.reason) body.reason = receipt.reason;
  return body;
}
