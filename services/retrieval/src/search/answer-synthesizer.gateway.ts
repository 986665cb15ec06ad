import { Inject, Injectable } from '@nestjs/common';
import { toJson, type JsonObject } from '@bufbuild/protobuf';
import { TimestampSchema, ValueSchema } from '@bufbuild/protobuf/wkt';
import { create, Rpcs, timestampDate, type MessageInitShape, type SearchHitSchema } from '@engram/contracts';
import { errorMessage, RpcClient } from '@engram/messaging';
import { ANSWER_FROM_MEMORY_LIMITS, memoryAnswer, type AnswerFromMemoryRequest } from '@engram/prompts';
import { RETRIEVAL_CONFIG, type RetrievalConfig } from '../retrieval.config';

type Hit = MessageInitShape<typeof SearchHitSchema>;

export type SynthesisOutcome =
  | { readonly synthesis: { readonly answer: string; readonly citedIds: string[]; readonly model: string } }
  | { readonly synthesis: null; readonly reason: string };

/**
 * A short answer to the query written by Gerty over the hits (task answer_from_memory),
 * citing their refs ("message:12"), or why there is none: a search never fails for want
 * of its synthesis.
 */
@Injectable()
export class AnswerSynthesizerGateway {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(RETRIEVAL_CONFIG) private readonly config: RetrievalConfig,
  ) {}

  async answer(tenantId: string, question: string, hits: readonly Hit[]): Promise<SynthesisOutcome> {
    // The best hits, each cut to what the task accepts: a long transcript turn is not refused, it is shortened.
    const taskInput: AnswerFromMemoryRequest = {
      question,
      hits: hits.slice(0, ANSWER_FROM_MEMORY_LIMITS.hits).map(toMemoryHit),
    };
    try {
      const reply = await this.rpc.call(
        Rpcs.gertyComplete,
        { task: 'answer_from_memory', taskInput: taskInput as JsonObject, tenantId },
        { timeoutMs: this.config.SEARCH_SYNTHESIS_TIMEOUT_MS },
      );
      const parsed = memoryAnswer.safeParse(reply.json ? toJson(ValueSchema, reply.json) : undefined);
      if (!parsed.success)
        return {
          synthesis: null,
          reason: `no synthesis: gerty's model ${reply.model} gave no answer in the expected shape`,
        };
      return {
        synthesis: { answer: parsed.data.answer, citedIds: parsed.data.citedIds, model: reply.model },
      };
    } catch (error) {
      return { synthesis: null, reason: `no synthesis (gerty: ${errorMessage(error)})` };
    }
  }
}

function toMemoryHit(hit: Hit): AnswerFromMemoryRequest['hits'][number] {
  const author = hit.provenance?.author;
  return {
    id: `${hit.kind}:${hit.id}`,
    kind: hit.kind as 'message' | 'summary' | 'fact',
    content: (hit.content ?? '').slice(0, ANSWER_FROM_MEMORY_LIMITS.contentChars),
    createdAt: timestampDate(create(TimestampSchema, hit.createdAt)).toISOString(),
    ...(author && { author }),
  };
}
