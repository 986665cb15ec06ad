export { EngramMemory, type EngramMemoryOptions } from './engram-memory';
export { resourceAgent } from './mastra-messages';
