/**
 * The fast path for the INSERT statements mysqldump writes (`INSERT INTO \`t\` VALUES (...),(...);`): one
 * native regex match per value. Anything it does not recognise is left to the general parser.
 */
import { decodeQuoted, numberValue } from './literals';
import { DumpRow } from './types';

export const INSERT_HEAD = /INSERT\s+INTO\s+`((?:[^`]|``)+)`\s+VALUES\s*/y;
// One whole value of a VALUES tuple plus the ',' or ')' after it: a '...' body (escapes and doubled quotes
// allowed, written unrolled so long strings do not backtrack), NULL, or a number.
const FAST_VALUE =
  /[ \t\r\n]*(?:'([^'\\]*(?:(?:\\[\s\S]|'')[^'\\]*)*)'|([Nn][Uu][Ll][Ll])|([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?))[ \t\r\n]*([,)])/y;

/**
 * Reads `(...),(...);` starting at `pos` with one regex match per value, appending rows to `out`.
 * Returns the position after the `;`, or -1 as soon as anything falls outside what mysqldump writes
 * (comments, hex, double quotes, spaces between tuples), so the caller can use the general parser.
 */
export function readTuplesFast(sql: string, pos: number, out: DumpRow[]): number {
  for (;;) {
    if (sql.charCodeAt(pos) !== 40 /* ( */) return -1;
    pos++;
    const row: DumpRow = [];
    for (;;) {
      FAST_VALUE.lastIndex = pos;
      const m = FAST_VALUE.exec(sql);
      if (m === null) return -1;
      pos = FAST_VALUE.lastIndex;
      const text = m[1];
      if (text !== undefined) row.push(text.indexOf('\\') === -1 && text.indexOf("''") === -1 ? text : decodeQuoted(text));
      else if (m[2] !== undefined) row.push(null);
      else row.push(numberValue(m[3]!));
      if (m[4] === ')') break;
    }
    out.push(row);
    const next = sql.charCodeAt(pos);
    if (next === 44 /* , */) pos++;
    else if (next === 59 /* ; */) return pos + 1;
    else return -1;
  }
}
