import { defineConfig } from 'tsup';

/**
 * The published package: ESM (index.mjs) and CommonJS (index.js), each with its bundled
 * declarations. Workspace libs (@engram/contracts, @engram/memory-core) are bundled from
 * their sources; the npm packages in package.json's dependencies stay imports.
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
  noExternal: [/^@engram\//],
  treeshake: true,
});
