/**
 * Import rules of the packages' own sources, checked by `npm run check:imports` (part of `npm test`).
 * Type-only imports count: a cycle through types is still a cycle of the design, and a type imported from a
 * higher floor is still an upward dependency.
 * @type {import('dependency-cruiser').IConfiguration}
 */

/**
 * The package floors of docs/architecture.md ("Package dependency direction"): each package and the Skein packages
 * it may import (its declared dependencies). Anything else, a package above it above all, is forbidden. Keep this
 * table, the page's table and each package.json's dependencies in agreement.
 */
const FLOORS = {
  names: [],
  telemetry: [],
  'dev-server': [],
  client: [],
  'create-skein': [],
  core: ['names'],
  discovery: ['names'],
  settings: ['names'],
  validator: ['discovery', 'settings', 'names'],
  worker: ['core', 'discovery', 'validator', 'settings', 'telemetry', 'names'],
  api: ['settings', 'telemetry', 'names'],
  testing: ['core', 'worker', 'dev-server'],
  cli: ['api', 'worker', 'validator', 'discovery', 'client', 'settings', 'create-skein', 'telemetry', 'dev-server'],
};

const floorRules = Object.entries(FLOORS).map(([pkg, allowed]) => ({
  name: `floor-${pkg}`,
  severity: 'error',
  comment:
    `packages/${pkg} may import ${allowed.length ? allowed.map((a) => `packages/${a}`).join(', ') : 'no other Skein package'} ` +
    '(docs/architecture.md, "Package dependency direction"): import only downwards, or move the shared part to a lower package.',
  from: { path: `^packages/${pkg}/src/` },
  to: { path: '^packages/[^/]+/', pathNot: `^packages/(${[pkg, ...allowed].join('|')})/` },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Modules must not import each other in a circle; move the shared part to a lower module (see docs/architecture.md).',
      from: { path: '^packages/[^/]+/src/' },
      to: { circular: true },
    },
    ...floorRules,
    {
      name: 'worker-root-on-top',
      severity: 'error',
      comment:
        "The worker's root (worker.ts: startWorker and its phases; index.ts: the package entry) composes its job folders " +
        '(check/, host/, interceptors/, bundle/, traces/, deploy/, cache/, metrics/); nothing in a job folder imports it back.',
      from: { path: '^packages/worker/src/[^/]+/' },
      to: { path: '^packages/worker/src/[^/]+\\.ts$' },
    },
    {
      name: 'api-routes-independent',
      severity: 'error',
      comment: 'A route module never imports another; what two routes share lives below them (temporal/, route.ts, handler-args.ts).',
      from: { path: '^packages/api/src/routes/', pathNot: '^packages/api/src/routes/index\\.ts$' },
      to: { path: '^packages/api/src/routes/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules|test|generated)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    combinedDependencies: false,
    // Resolve `@skein/*` imports to their sources (the workspace's own export condition), so an import of another
    // package is an edge between the two packages' `src/` folders, which the floor rules judge.
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['@skein/source', 'import', 'types', 'default'],
      mainFields: ['module', 'main', 'types'],
    },
  },
};
