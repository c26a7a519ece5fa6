/** Every migration of the plugin-owned tables, in the order they were written. */
import { Migration } from '../../../lib/wp/db/migrate';
import { createRateLimits } from './20261122-01-create-rate-limits';

export const MIGRATIONS: Migration[] = [createRateLimits];
