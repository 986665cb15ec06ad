import type { JsonValue } from '@bufbuild/protobuf';
import type { ModelDefinition } from '../../models/model-catalog';
import type { CallOptions, ChatPrompt, Completion, Embedding, ModelProvider } from '../model-provider';
import type { OpenAiCompatibleClient } from './openai-compatible.client';

/** A model behind an OpenAI-compatible endpoint (Ollama, llama.cpp, vLLM, TEI, a cloud API). */
export class OpenAiProvider implements ModelProvider {
  readonly modelId: string;
  readonly dimensions?: number;

  constructor(
    private readonly definition: ModelDefinition,
    private readonly client: OpenAiCompatibleClient,
  ) {
    this.modelId = `openai:${definition.model}`;
    if (definition.dimensions !== undefined) this.dimensions = definition.dimensions;
  }

  async embed(texts: readonly string[], options: CallOptions): Promise<Embedding> {
    const result = await this.client.embed({
      model: this.definition.model!,
      input: texts,
      signal: options.signal,
      ...(options.apiKey && { apiKey: options.apiKey }),
    });
    return { vectors: result.vectors, dimensions: result.dimensions };
  }

  async complete(prompt: ChatPrompt, options: CallOptions): Promise<Completion> {
    const result = await this.client.complete({
      model: this.definition.model!,
      messages: prompt.messages,
      signal: options.signal,
      ...(this.definition.thinking && { thinking: this.definition.thinking }),
      ...(options.apiKey && { apiKey: options.apiKey }),
      ...(prompt.jsonSchema && { jsonSchema: prompt.jsonSchema }),
      ...(prompt.schemaName && { schemaName: prompt.schemaName }),
      ...(prompt.maxTokens && { maxTokens: prompt.maxTokens }),
      ...(prompt.temperature !== undefined && { temperature: prompt.temperature }),
    });
    return {
      text: result.text,
      ...(result.json !== undefined && { json: result.json as JsonValue }),
      ...(result.promptTokens !== undefined && { promptTokens: result.promptTokens }),
      ...(result.completionTokens !== undefined && { completionTokens: result.completionTokens }),
    };
  }
}
