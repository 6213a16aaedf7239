/**
 * The import rules `npm run lint:cycles` checks (dependency-cruiser) over every TypeScript file of the repository:
 * shipped code, tests, benchmarks and scripts. Resolution is the project's own (tsconfig.json: `.ts` specifiers,
 * workspace packages through node_modules/@ephemera to their sources). Type-only imports count too: a cycle of types
 * is still two files that cannot be read, moved or tested apart. test/lint-cycles.test.ts shows each rule failing.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'An import cycle. Break it by moving what both sides need (types, constants, a shared function) into a file ' +
        'that imports neither, or by importing a part directly instead of the index.ts that re-exports it.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-other-service-internals',
      severity: 'error',
      comment:
        "A service's shipped code reaches into another service's src/. Import the service's package entry " +
        '(@ephemera/<service>, src/index.ts) or one of its boundary files: its configuration (src/config.ts; the ' +
        "platform's config.ts and config-vars.ts), its clients (src/client.ts, src/clients.ts) or its HTTP boundary " +
        '(src/http.ts, src/*-http.ts), where an internal route and its client live together.',
      // $1 is the importing service: its own src/ is free. Tests (services/*/test/) may import what they test.
      from: { path: '^services/([^/]+)/', pathNot: '^services/[^/]+/test/' },
      to: {
        path: '^services/[^/]+/src/',
        pathNot: [
          '^services/$1/',
          '^services/[^/]+/src/(index|config|client|clients|http|[a-z-]+-http)\\.ts$',
          '^services/platform/src/config-vars\\.ts$',
        ],
      },
    },
    {
      name: 'no-services-from-proto',
      severity: 'error',
      comment: 'proto/ holds the contracts every service and the browser share: it imports no service.',
      from: { path: '^proto/src/' },
      to: { path: '^services/' },
    },
    {
      name: 'no-services-from-browser',
      severity: 'error',
      comment:
        "The browser's code imports the contracts (@ephemera/proto/client, types of @ephemera/proto), no service.",
      from: { path: '^frontend/src/' },
      to: { path: '^services/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|data)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
  },
};
