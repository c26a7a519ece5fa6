/**
 * Reads a WordPress wp-config.php without running PHP.
 *
 * The file is tokenized like PHP would (inline HTML outside `<?php … ?>`, `//` `#` `/* *\/` comments,
 * single/double-quoted strings, heredoc/nowdoc, numbers), and only two kinds of statement are understood:
 *
 * - `define( 'NAME', <value> )` (any case, optionally `\define`): the value is evaluated when it is made of
 *   literals (strings, numbers, true/false/null), `.` concatenation, `+ - * / %` on numbers, parentheses and
 *   references to constants already read from the same file. Anything else (`getenv('X')`, `__DIR__ . '/'`,
 *   `$var`, `"interpolated $x"`) is **dynamic**: the name is still recorded in `constants` with the value
 *   `null` (so `name in constants` answers PHP's `defined()`), and the PHP source of the value is kept in
 *   `dynamic[name]` so callers can tell a literal `null` from a value we could not compute.
 * - `$table_prefix = <value>;` (and `.=` on it), evaluated the same way.
 * - `$memcached_servers = <array>;` (READ_VARIABLES): the last top-level assignment, else the first nested one.
 *
 * Array literals (`array( … )`, `[ … ]`) of computable values are read into `arrays` (for constants) and
 * `variables`; to the scalar readers such a constant stays dynamic. When `file` is an absolute path,
 * `__FILE__`, `__DIR__` and `dirname()` of them are computed (the usual `define( 'ABSPATH', __DIR__ . '/' )`);
 * for a relative label they are dynamic.
 *
 * Control flow is not executed: a define inside `if ( ! defined( 'X' ) ) { … }` counts as defined. When one
 * constant is defined more than once, PHP keeps the first definition that runs; we approximate "runs" by
 * preferring the first top-level definition (outside any `{ … }` block) and otherwise the first nested one.
 * For `$table_prefix` the last top-level assignment wins, else the first nested one (so the common
 * `if ( ! isset( $table_prefix ) ) { $table_prefix = 'wp_'; }` fallback does not override a real value).
 * Included files (`require_once`) are not followed. `#` always starts a comment, as in PHP 7 (PHP 8 would read
 * `#[` as an attribute, which has no place in a wp-config file).
 */
import * as fs from 'node:fs';
import path from 'node:path';
import { DynamicValue, EvaluationScope, evaluate, evaluateData } from './evaluate';
import { Brackets, callArguments, sourceOf, statementRest } from './statements';
import { Token } from './token';
import { tokenize } from './tokenizer';
import { WpConfigArray, WpConfigData, WpConfigFile, WpConfigValue } from './types';
import { phpToString } from './values';

/** Global variables read besides `$table_prefix`: what object-cache drop-ins take from wp-config.php. */
const READ_VARIABLES = new Set(['memcached_servers']);

/**
 * Parses wp-config.php source. `file` labels the result; `phpFile` is what PHP would see as `__FILE__`
 * (default: `file` when absolute). Never throws on odd PHP.
 */
export function parseWpConfig(source: string, file: string, phpFile: string = file): WpConfigFile {
  const tokens = tokenize(source);
  const brackets = new Brackets(tokens);
  const constants: Record<string, WpConfigValue> = Object.create(null);
  const dynamic: Record<string, string> = Object.create(null);
  const arrays: Record<string, WpConfigArray> = Object.create(null);
  const variables: Record<string, WpConfigData> = Object.create(null);
  const topLevel = new Set<string>();
  const known = (name: string): WpConfigValue | undefined =>
    name in constants && !(name in dynamic) ? constants[name] : undefined;
  const scope: EvaluationScope = { known, file: path.posix.isAbsolute(phpFile) ? phpFile : undefined };

  // `$table_prefix`: a top-level `=` always runs, so the last one wins and `.=` appends to it; a nested
  // `=` (inside some `{ … }`) only counts while nothing else has been recorded; a nested `.=` is ignored.
  let prefix: { value: string | undefined; dynamicSource?: string } | undefined;
  const assignPrefix = (exprTokens: Token[], append: boolean, atTop: boolean): void => {
    if (!atTop && (append || prefix)) return;
    if (append && prefix?.dynamicSource !== undefined) return; // still dynamic
    let value: string | undefined;
    try {
      const v = evaluate(exprTokens, scope);
      value = v === null ? undefined : phpToString(v);
    } catch (e) {
      if (!(e instanceof DynamicValue)) throw e;
      const expr = sourceOf(source, exprTokens);
      prefix = { value: undefined, dynamicSource: append ? `… .= ${expr}` : expr };
      return;
    }
    prefix = { value: append ? (prefix?.value ?? '') + (value ?? '') : value };
  };

  // Like `$table_prefix`'s `=`: the last top-level assignment wins, a nested one only when first.
  const assignVariable = (name: string, exprTokens: Token[], atTop: boolean): void => {
    const key = `$${name}`;
    if (!atTop && (name in variables || key in dynamic)) return;
    delete variables[name];
    delete dynamic[key];
    try {
      variables[name] = evaluateData(exprTokens, scope);
    } catch (e) {
      if (!(e instanceof DynamicValue)) throw e;
      dynamic[key] = sourceOf(source, exprTokens);
    }
  };

  let depth = 0;
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k];
    const prev = tokens[k - 1];
    if (t.kind === 'punct') {
      if (t.text === '{') depth++;
      else if (t.text === '}') depth = Math.max(0, depth - 1);
      continue;
    }
    const afterMember = prev?.kind === 'punct' && (prev.text === '->' || prev.text === '?->' || prev.text === '::');
    if (
      t.kind === 'ident' &&
      t.text.toLowerCase() === 'define' &&
      tokens[k + 1]?.kind === 'punct' &&
      tokens[k + 1].text === '(' &&
      !afterMember &&
      !(prev?.kind === 'ident' && /^(function|new|const|fn)$/i.test(prev.text))
    ) {
      const call = callArguments(tokens, k + 1, brackets);
      if (!call || call.args.length < 2) continue;
      let name: WpConfigValue;
      try {
        name = evaluate(call.args[0], scope);
      } catch (e) {
        if (!(e instanceof DynamicValue)) throw e;
        continue;
      }
      if (typeof name !== 'string' || name === '') continue;
      const atTop = depth === 0;
      if (name in constants && (topLevel.has(name) || !atTop)) continue; // an earlier definition stands
      delete arrays[name];
      let value: WpConfigData | undefined;
      try {
        value = evaluateData(call.args[1], scope);
      } catch (e) {
        if (!(e instanceof DynamicValue)) throw e;
      }
      if (value instanceof Map) arrays[name] = value;
      if (value === undefined || value instanceof Map) {
        constants[name] = null;
        dynamic[name] = sourceOf(source, call.args[1]);
      } else {
        constants[name] = value;
        delete dynamic[name];
      }
      if (atTop) topLevel.add(name);
      k = call.end - 1;
    } else if (t.kind === 'variable' && t.text === 'table_prefix' && !afterMember) {
      const op = tokens[k + 1];
      if (op?.kind === 'punct' && (op.text === '=' || op.text === '.=')) {
        const expr = statementRest(tokens, k + 2);
        assignPrefix(expr, op.text === '.=', depth === 0);
        k += 1 + expr.length;
      }
    } else if (t.kind === 'variable' && READ_VARIABLES.has(t.text) && !afterMember) {
      const op = tokens[k + 1];
      if (op?.kind === 'punct' && op.text === '=') {
        const expr = statementRest(tokens, k + 2);
        assignVariable(t.text, expr, depth === 0);
        k += 1 + expr.length;
      }
    }
  }

  if (prefix?.dynamicSource !== undefined) dynamic.$table_prefix = prefix.dynamicSource;
  return {
    file,
    constants: { ...constants },
    tablePrefix: prefix?.value,
    dynamic: { ...dynamic },
    arrays: { ...arrays },
    variables: { ...variables },
  };
}

/** Reads and parses a wp-config.php (UTF-8). Throws with the path in the message if it cannot be read. */
export function readWpConfig(file: string): WpConfigFile {
  let source: string;
  try {
    source = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new Error(`${file}: cannot read wp-config file: ${(e as Error).message}`, { cause: e });
  }
  // PHP's __FILE__ is the file's real path, symbolic links resolved.
  return parseWpConfig(source, file, fs.realpathSync(file));
}
