import { Injectable } from '@nestjs/common';
import {
  timestampDate,
  type ListFactsRequest,
  type ListFactsResponseSchema,
  type MessageInitShape,
} from '@engram/contracts';
import { TenantTransactions } from '@engram/store';
import { factMessage } from './fact-history';
import { FactRecordsRepository } from './fact-records.repository';

type ListFactsResponseInit = MessageInitShape<typeof ListFactsResponseSchema>;

export const DEFAULT_FACTS_PAGE = 100;

/**
 * mem.rpc.facts.list: the tenant's facts, newest first, by agent, category, conversation and
 * creation time, with the count of all that match. Only facts in force (open, not expired)
 * unless include_closed: a superseded or forgotten fact is history, not memory. The request
 * passed its rules (libs/contracts factsListRules).
 */
@Injectable()
export class ListFactsUseCase {
  constructor(
    private readonly transactions: TenantTransactions,
    private readonly records: FactRecordsRepository,
  ) {}

  async list(tenantId: string, request: ListFactsRequest): Promise<ListFactsResponseInit> {
    const { facts, total } = await this.transactions.run(tenantId, (manager) =>
      this.records.list(
        manager,
        {
          agents: request.agents,
          categories: request.categories,
          conversationId: request.conversationId || null,
          includeClosed: request.includeClosed,
          from: request.from ? timestampDate(request.from) : null,
          to: request.to ? timestampDate(request.to) : null,
          metadata: request.metadata ?? null,
          ids: request.ids,
        },
        { limit: request.limit || DEFAULT_FACTS_PAGE, offset: request.offset },
      ),
    );
    return { facts: facts.map(factMessage), total: BigInt(total) };
  }
}
