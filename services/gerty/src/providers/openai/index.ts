export * from './openai-compatible.client';
export { STRUCTURED_MODES, type StructuredMode } from './openai-protocol';
