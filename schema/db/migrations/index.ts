/** Every migration of the plugin-owned tables, in the order they were written. */
import { Migration } from '../../../lib/wp/db/migrate';
import { createRateLimits } from './20261122-01-create-rate-limits';
import { createRequestKeys } from './20261122-02-create-request-keys';
import { createJobs } from './20261122-03-create-jobs';
import { createMailReceipts } from './20261122-04-create-mail-receipts';
import { createFrmSubmissions } from './20261122-10-create-frm-submissions';
import { createPortal } from './20261125-01-create-portal';
import { indexPortalExpiry } from './20261125-02-index-portal-expiry';
import { createDocVotes } from './20261125-05-create-doc-votes';
import { createShadowEvidence } from './20261125-20-create-shadow-evidence';
import { addMailReceiptDetails } from './20261127-01-add-mail-receipt-details';
import { indexEachSiteOnSqlite } from './20261128-01-index-each-site-on-sqlite';

export const MIGRATIONS: Migration[] = [
  createRateLimits, createRequestKeys, createJobs, createMailReceipts, createFrmSubmissions, createPortal, indexPortalExpiry, createDocVotes, createShadowEvidence, addMailReceiptDetails,
  indexEachSiteOnSqlite,
];
