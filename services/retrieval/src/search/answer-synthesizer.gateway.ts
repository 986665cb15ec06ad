import { Inject, Injectable } from '@nestjs/common';
import { TimestampSchema } from '@bufbuild/protobuf/wkt';
import { create, timestampDate, type MessageInitShape, type SearchHitSchema } from '@engram/contracts';
import { GertyClient } from '@engram/gerty-client';
import { errorMessage } from '@engram/messaging';
import { ANSWER_FROM_MEMORY_LIMITS, type TaskRequest } from '@engram/prompts';
import { RETRIEVAL_CONFIG, type RetrievalConfig } from '../retrieval.config';

type Hit = MessageInitShape<typeof SearchHitSchema>;
type MemoryHitRequest = TaskRequest<'answer_from_memory'>['hits'][number];

export type SynthesisOutcome =
  | { readonly synthesis: { readonly answer: string; readonly citedIds: string[]; readonly model: string } }
  | { readonly synthesis: null; readonly reason: string };

/**
 * A short answer to the query written by Gerty over the hits (task answer_from_memory),
 * citing their refs ("message:12"), or why there is none: a search never fails for want
 * of its synthesis (Gerty down, late past SEARCH_SYNTHESIS_TIMEOUT_MS, or answering oddly).
 */
@Injectable()
export class AnswerSynthesizerGateway {
  constructor(
    private readonly gerty: GertyClient,
    @Inject(RETRIEVAL_CONFIG) private readonly config: RetrievalConfig,
  ) {}

  async answer(tenantId: string, question: string, hits: readonly Hit[]): Promise<SynthesisOutcome> {
    try {
      const { output, model } = await this.gerty.complete(
        'answer_from_memory',
        // The best hits, each cut to what the task accepts: a long transcript turn is not refused, it is shortened.
        { question, hits: hits.slice(0, ANSWER_FROM_MEMORY_LIMITS.hits).map(toMemoryHit) },
        { tenantId, timeoutMs: this.config.SEARCH_SYNTHESIS_TIMEOUT_MS },
      );
      return { synthesis: { answer: output.answer, citedIds: output.citedIds, model } };
    } catch (error) {
      return { synthesis: null, reason: `no synthesis (gerty: ${errorMessage(error)})` };
    }
  }
}

function toMemoryHit(hit: Hit): MemoryHitRequest {
  const author = hit.provenance?.author;
  return {
    id: `${hit.kind}:${hit.id}`,
    kind: hit.kind as MemoryHitRequest['kind'],
    content: (hit.content ?? '').slice(0, ANSWER_FROM_MEMORY_LIMITS.contentChars),
    createdAt: timestampDate(create(TimestampSchema, hit.createdAt)).toISOString(),
    ...(author && { author }),
  };
}
