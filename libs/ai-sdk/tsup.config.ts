import { resolve, sep } from 'node:path';
import type { Plugin } from 'esbuild';
import { defineConfig } from 'tsup';

/** The workspace's libraries: what of them the package uses is bundled. */
const LIBS = resolve(__dirname, '..') + sep;

/** Marks the resolutions this plugin asks for itself, so that it does not ask again. */
const ASKED = Symbol('pure-workspace-code');

/**
 * Workspace code is pure: a module of it the package does not use is left out whole, with its
 * imports. Engram's MCP tools come without the MCP server, the contracts without the RPCs the
 * tools never call, @engram/messaging as RpcError alone.
 */
const pureWorkspaceCode: Plugin = {
  name: 'pure-workspace-code',
  setup(build) {
    build.onResolve({ filter: /^(@engram\/|\.)/ }, async ({ path, pluginData, ...args }) => {
      if (pluginData === ASKED) return undefined;
      const resolved = await build.resolve(path, { ...args, pluginData: ASKED });
      return resolved.errors.length === 0 && resolved.path.startsWith(LIBS)
        ? { path: resolved.path, sideEffects: false }
        : undefined;
    });
  },
};

/**
 * The published package: ESM (index.mjs) and CommonJS (index.js), each with its bundled
 * declarations. Workspace code is bundled (pureWorkspaceCode); npm packages stay imports: the
 * peers (@engram/client, ai, zod) and package.json's dependencies.
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
  external: [/^[^./]/],
  esbuildPlugins: [pureWorkspaceCode],
  treeshake: true,
});
