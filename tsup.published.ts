import { resolve, sep } from 'node:path';
import type { Plugin } from 'esbuild';
import type { Options } from 'tsup';

/** The workspace's libraries: what of them a package uses is bundled. */
const LIBS = resolve(__dirname, 'libs') + sep;

/** Marks the resolutions the plugin asks for itself, so that it does not ask again. */
const ASKED = Symbol('pure-workspace-code');

/**
 * Workspace code is pure: a module of it the package does not use is left out whole, with its
 * imports. A package then carries the few functions it calls (an MCP tool, entityAgent), not the
 * libraries around them (the MCP server, every contract).
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
 * An Engram package as published (the SDK and the framework packages): ESM (index.mjs) and
 * CommonJS (index.js), each with its bundled declarations. Workspace code is bundled, but for
 * @engram/client, a framework package's peer; npm packages stay imports: the peers and
 * package.json's dependencies.
 */
export const publishedPackage: Options = {
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
};
