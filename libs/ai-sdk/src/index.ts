export {
  ENGRAM_TOOL_NAMES,
  engramTools,
  type EngramTool,
  type EngramToolName,
  type EngramToolsOptions,
} from './engram-tools';
export { engramMemory, type EngramMemory, type EngramMemoryOptions } from './engram-memory';
