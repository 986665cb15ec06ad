import { defineConfig } from 'tsup';
import { publishedPackage } from '../../tsup.published';

/** The SDK bundles every workspace lib it uses, declarations included (it has no Engram peer). */
export default defineConfig({ ...publishedPackage, noExternal: [/^@engram\//], external: [] });
