/**
 * The layering rules (docs/architecture.md), checked by `npm run layers` in CI:
 * WordPress core knows no plugin, the two plugins know nothing of each other, domain code knows
 * nothing of HTTP, and only WordPress's HTTP layers (REST, admin-ajax, pages) know each other.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'wp-core-is-plugin-blind',
      comment: 'lib/wp is WordPress: it never imports a plugin area, the routes or the tools built on it.',
      severity: 'error',
      from: { path: '^lib/wp/' },
      to: { path: '^(lib/(support|forms|cli|demo|proxy|replay)|routes)/' },
    },
    {
      name: 'support-and-forms-apart',
      comment: 'The support desk and the form service never import each other.',
      severity: 'error',
      from: { path: '^lib/(support|forms)/' },
      to: { path: '^lib/(support|forms)/', pathNot: '^lib/$1/' },
    },
    {
      name: 'domain-without-http',
      comment: 'Domain code knows nothing of Express, the REST or admin-ajax layers, or the routes.',
      severity: 'error',
      from: { path: '^lib/(support|forms|mail)/' },
      to: { path: '^(node_modules/express/|routes/|lib/wp/(rest|ajax)/|lib/wp/pages\\.ts$)' },
    },
    {
      name: 'wp-core-below-http',
      comment: 'Inside lib/wp only the HTTP layers (rest/, ajax/, pages.ts) import rest/ and ajax/, or Express.',
      severity: 'error',
      from: { path: '^lib/wp/', pathNot: '^lib/wp/(rest/|ajax/|pages\\.ts$)' },
      to: { path: '^(lib/wp/(rest|ajax)/|node_modules/express/)' },
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
