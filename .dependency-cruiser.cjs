// The rules that keep the app's layers (app/layers.json; issue 13), checked by
// dependency-cruiser in `npm test` (scripts/test.sh): no import cycle
// anywhere, and every import points down the layers or stays in its own
// folder. docs/ARCHITECTURE.md explains each layer.

const LAYERS = require('./app/layers.json').layers.map((l) => l.folder);

/** Tests and test fakes may reach anywhere. */
const NOT_TESTS = '(\\.test\\.tsx?$|/testing/)';

const upward = LAYERS.slice(0, -1).map((layer, i) => ({
  name: `no-upward-from-${layer}`,
  comment: `${layer} is below ${LAYERS.slice(i + 1).join(', ')} and the app shell: it must not import them`,
  severity: 'error',
  from: { path: `^app/src/${layer}/`, pathNot: NOT_TESTS },
  to: { path: [`^app/src/(${LAYERS.slice(i + 1).join('|')})/`, '^app/src/[^/]+\\.tsx?$'] },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import cycle: the layers and folders must form a tree of one-way dependencies.',
      severity: 'error',
      from: { pathNot: NOT_TESTS },
      to: { circular: true },
    },
    ...upward,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['/pkg/', 'node_modules'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] },
  },
};
