// The layering `npm run lint` checks (docs/architecture.md, "Layers"): the core, the HTTP adapter and
// the database layer import no feature, and no module imports itself back through others.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-feature-below',
      comment: 'src/core, src/http and src/db are what features stand on: they import only each other and the configuration. A shape they need from a feature moves down, or the feature adds it to ContextServices (core/context.ts).',
      severity: 'error',
      from: { path: '^src/(core|http|db)/' },
      to: { path: '^src/', pathNot: ['^src/(core|http|db|config)/', '^src/(config|logger)\\.ts$'] },
    },
    {
      name: 'no-circular',
      comment: 'An import circle makes load order matter and a module impossible to read alone. The WordPress converter is the one exception: its element and block handlers call each other as the markup nests.',
      severity: 'error',
      from: { pathNot: '^src/import/convert/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
