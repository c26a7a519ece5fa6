/**
 * What a comparison of two answers is told (the rules) and what it finds (the differences), shared by
 * the answer comparison (compare.ts) and the JSON one it hands bodies to (compare-json.ts).
 */

/** A value compared by shape only: both sides must match `pattern`, then they count as equal. */
export interface VolatileRule {
  /** Lower-case header name whose values are volatile. */
  header?: string;
  /** Paths (as compileJsonPath builds them) of volatile JSON strings and numbers. */
  jsonPath?: RegExp;
  /** The whole text body (not JSON) is volatile, e.g. admin-ajax `rest-nonce`. */
  body?: boolean;
  pattern: RegExp;
  placeholder: string;
  /** Values matching this rule are secrets (nonces): reports redact them. */
  secret?: boolean;
}

export interface CompareRules {
  /** Lower-case header names compared between the two answers (absent on one side counts). */
  significantHeaders: string[];
  /** Replace these strings in both answers before comparing (e.g. the captured host by the target's). */
  replace: Array<[string, string]>;
  volatile: VolatileRule[];
  /** Paths of JSON arrays compared as multisets (element order ignored). */
  unorderedLists?: RegExp[];
}

export interface Difference {
  /** `status`, `header <name>`, `body` (text) or a JSON path such as `body.items[0].id`. */
  where: string;
  expected: string;
  actual: string;
}
