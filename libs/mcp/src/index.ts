export * from './memory-mcp-server';
export * from './http';
export type { MemoryMcpOptions, MemoryRpcCall, MemoryRpcOptions } from './tool-scope';
export { renderContext } from './render';
