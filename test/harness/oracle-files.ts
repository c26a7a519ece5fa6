/**
 * Where the tests find the oracle: fixtures/oracle, byte-for-byte copies of what a real WordPress 6.1.9
 * made (see its README). Every reader takes its paths from here; this module reads nothing itself, so
 * unit tests can use it without opening a site.
 */
import path from 'node:path';

export const ORACLE_DIR = path.resolve(__dirname, '../../fixtures/oracle');

/** The files copied from the shared oracle, the only ones the tests read. */
export const ORACLE_FILES = ['credentials.json', 'formatting-vectors.json', 'wp-core-traffic.json', 'wp-oracle.sql'] as const;

export type OracleFile = (typeof ORACLE_FILES)[number];

export const oracleFile = (name: OracleFile): string => path.join(ORACLE_DIR, name);
