/**
 * The layering rules (docs/architecture.md), checked by `npm run layers` in CI:
 * WordPress core knows no plugin, the two plugins know nothing of each other, the job queue they
 * share knows neither of them, domain code knows nothing of HTTP, only WordPress's HTTP layers
 * (REST, admin-ajax, pages) know each other, the tools stand on top of all that, and no module
 * imports itself round a circle.
 */
/**
 * Where SQL may be written in the two plugins (docs/architecture.md, "Where SQL lives"): each area's
 * `store.ts` (and lib/support/store.ts, lib/forms/store.ts), an area's `writes.ts` (the write side of
 * its store: tickets, changelogs), a `*-query.ts` (a query built in pieces: tickets/list-query.ts),
 * `request-keys.ts` and `write.ts` (the one write envelope, whose context holds the transaction).
 * Also exempt: the bulk ticket seed (seed/), which writes straight through its own transaction onto a
 * site nobody reads yet, as the demo seed does; and the desk's job enqueue (enqueue.ts), which builds
 * no SQL but names the transaction type it hands to lib/jobs.
 * .sql-in-stores.cjs reads this same list (the rule `sql-in-stores`).
 */
const SQL_FILES = [
  '^lib/(support|forms)/store\\.ts$',
  '^lib/support/[^/]+/store\\.ts$',
  '^lib/support/[^/]+/writes\\.ts$',
  '^lib/support/[^/]+/[^/]+-query\\.ts$',
  '^lib/support/seed/',
  '^lib/support/(enqueue|request-keys|write)\\.ts$',
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'wp-core-is-plugin-blind',
      comment: 'lib/wp is WordPress: it never imports a plugin area, the job queue, the routes or the tools built on it.',
      severity: 'error',
      from: { path: '^lib/wp/' },
      to: { path: '^(lib/(support|forms|jobs|cli|demo|proxy|replay)|routes)/|^lib/(app|worker)\\.ts$' },
    },
    {
      name: 'jobs-are-plugin-blind',
      comment: 'lib/jobs is the queue both plugins share: it knows no plugin (each brings its handlers, composed in lib/worker.ts), no route and no tool.',
      severity: 'error',
      from: { path: '^lib/jobs/' },
      to: { path: '^(lib/(support|forms|cli|demo|proxy|replay)|routes)/|^lib/(app|worker)\\.ts$' },
    },
    {
      name: 'support-and-forms-apart',
      comment: 'The support desk and the form service never import each other.',
      severity: 'error',
      from: { path: '^lib/(support|forms)/' },
      to: { path: '^lib/(support|forms)/', pathNot: '^lib/$1/' },
    },
    {
      name: 'plugins-below-composition',
      comment: 'lib/app.ts and lib/worker.ts bring both plugins together; a plugin importing them would reach the other one.',
      severity: 'error',
      from: { path: '^lib/(support|forms)/' },
      to: { path: '^lib/(app|worker)\\.ts$' },
    },
    {
      name: 'domain-without-http',
      comment: 'Domain code knows nothing of Express, the REST or admin-ajax layers, or the routes.',
      severity: 'error',
      from: { path: '^lib/(support|forms|mail|jobs)/' },
      to: { path: '^(node_modules/express/|routes/|lib/wp/(rest|ajax)/|lib/wp/pages\\.ts$)' },
    },
    {
      name: 'wp-core-below-http',
      comment: 'Inside lib/wp only the HTTP layers (rest/, ajax/, pages.ts) import rest/ and ajax/, or Express.',
      severity: 'error',
      from: { path: '^lib/wp/', pathNot: '^lib/wp/(rest/|ajax/|pages\\.ts$)' },
      to: { path: '^(lib/wp/(rest|ajax)/|node_modules/express/)' },
    },
    {
      name: 'sql-in-stores',
      comment:
        'In lib/support and lib/forms only the files of SQL_FILES (above) build SQL: knex, its types included (a `Knex.Transaction` '
        + 'parameter is a handle to build SQL on), and the lib/wp/db modules that run SQL on a handle given to them (transaction.ts, optimizer.ts), '
        + 'are imported there only. What no import shows, the query builder reached as `site.db.knex` or a transaction called as '
        + '`ctx.trx(table)`, is checked by .sql-in-stores.cjs in the same `npm run layers`.',
      severity: 'error',
      from: { path: '^lib/(support|forms)/', pathNot: SQL_FILES },
      to: { path: '(^|/)node_modules/knex/|^lib/wp/db/(transaction|optimizer)\\.ts$' },
    },
    {
      name: 'tools-on-top',
      comment: 'The tools (lib/cli, lib/proxy, lib/replay, lib/observability, lib/demo) use the product; WordPress, the plugins, the queue, the routes, the front doors and the schemas never import them.',
      severity: 'error',
      from: { path: '^(lib|routes|schema)/', pathNot: '^lib/(cli|proxy|replay|observability|demo)/' },
      to: { path: '^lib/(cli|proxy|replay|observability|demo)/' },
    },
    {
      name: 'no-circular',
      comment: 'No module reaches itself through its imports, type-only imports included: a circle is two files that can only be read together.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    // TypeScript 7 has no JavaScript API for dependency-cruiser to parse with; swc reads TypeScript.
    parser: 'swc',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
  },
};
