// The values this package takes from @mastra/core. Mastra ships a CommonJS build beside its ES
// modules (Node's require and tsup's CommonJS output load it), but declares its types as ES
// modules only, which TypeScript refuses to import by value into a CommonJS file (module node16:
// TS1479). Types come in with `resolution-mode: "import"`; these values, here only, unchecked.

// @ts-expect-error TS1479: a CommonJS build exists, only its declarations are ES modules.
export { MastraMemory, parseMemoryRequestContext } from '@mastra/core/memory';
// @ts-expect-error TS1479: a CommonJS build exists, only its declarations are ES modules.
export { createTool } from '@mastra/core/tools';
