export { LOCAL_EMBEDDING_ASSET, LOCAL_EMBEDDING_MODEL_ID } from './model-id';
export { cosineSimilarity, defaultModelPath, LocalEmbedder } from './local-embedder';
export { ModelFormatError, type ModelHeader } from './format';
export { tokenStrings as tokenizeForEmbedding } from './tokenizer';
export {
  measureThroughput,
  sampleTexts,
  type SampleTextOptions,
  type ThroughputOptions,
  type ThroughputResult,
} from './throughput';
