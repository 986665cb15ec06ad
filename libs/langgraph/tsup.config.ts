import { defineConfig } from 'tsup';

/**
 * The published package: ESM (index.mjs) and CommonJS (index.js), each with its bundled
 * declarations. @engram/client and the framework stay imports (peer dependencies: the
 * application's own copies); other workspace libs would be bundled from their sources.
 */
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  platform: 'node',
  tsconfig: 'tsconfig.json',
  noExternal: [/^@engram\/(?!client$)/],
  treeshake: true,
});
