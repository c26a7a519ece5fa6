/** The report for machines: the whole ReplayReport (already redacted), under a versioned format name. */
import type { ReplayReport } from '../runner';

export const REPORT_FORMAT = 'understudy-replay/1';

export function jsonReport(report: ReplayReport): string {
  return `${JSON.stringify({ format: REPORT_FORMAT, ...report }, null, 2)}\n`;
}
