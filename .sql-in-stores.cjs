/**
 * The half of the rule `sql-in-stores` (.dependency-cruiser.cjs) that no import shows: a file of
 * lib/support or lib/forms outside that rule's list reaching the query builder (`site.db.knex`,
 * `const { knex } = db`) or calling a transaction to build a query (`ctx.trx(table)`, `trx.raw(…)`).
 * Handing `ctx.trx` on to a store or to lib/wp's row writers is fine: that builds no SQL here.
 * Run by `npm run layers` after depcruise; exits 1 listing each offending line.
 */
const fs = require('node:fs');
const path = require('node:path');
const config = require('./.dependency-cruiser.cjs');

const rule = config.forbidden.find((r) => r.name === 'sql-in-stores');
const scope = new RegExp(rule.from.path);
const allowed = [rule.from.pathNot].flat().map((p) => new RegExp(p));
const BUILDS_SQL = [/\bknex\b/, /\btrx\s*\(/, /\btrx\.(raw|schema|transaction)\b/];

function sourceFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return file.endsWith('.ts') ? [file] : [];
  });
}

/** The code of a line, its comments left out (a doc comment may name knex). */
function codeOf(line, inComment) {
  let code = '';
  let rest = line;
  let open = inComment;
  while (rest) {
    if (open) {
      const end = rest.indexOf('*/');
      if (end < 0) return { code, inComment: true };
      rest = rest.slice(end + 2);
      open = false;
      continue;
    }
    const start = rest.search(/\/\*|\/\//);
    if (start < 0) return { code: code + rest, inComment: false };
    code += rest.slice(0, start);
    if (rest.startsWith('//', start)) return { code, inComment: false };
    rest = rest.slice(start + 2);
    open = true;
  }
  return { code, inComment: open };
}

const offences = [];
for (const file of ['lib/support', 'lib/forms'].flatMap(sourceFiles)) {
  if (!scope.test(file) || allowed.some((re) => re.test(file))) continue;
  let inComment = false;
  fs.readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
    const read = codeOf(line, inComment);
    inComment = read.inComment;
    if (BUILDS_SQL.some((re) => re.test(read.code))) offences.push(`  error sql-in-stores: ${file}:${i + 1}: ${line.trim()}`);
  });
}

if (offences.length) {
  console.error(`${offences.join('\n')}\n\nx ${offences.length} line(s) build SQL outside a store (see the rule sql-in-stores in .dependency-cruiser.cjs).`);
  process.exit(1);
}
console.log('✔ no SQL built outside the stores of lib/support and lib/forms');
