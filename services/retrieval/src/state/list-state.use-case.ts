import { Injectable } from '@nestjs/common';
import {
  timestampFromDate,
  type ListStateRequest,
  type ListStateResponseSchema,
  type MessageInitShape,
} from '@engram/contracts';
import { TenantTransactions } from '@engram/store';
import { StateRepository } from './state.repository';

/**
 * mem.rpc.state.list: an agent's [STATE:key]value[/STATE] pairs (the latest statement of each
 * key), by key; only the keys asked for when some are (a key never stated is left out).
 */
@Injectable()
export class ListStateUseCase {
  constructor(
    private readonly transactions: TenantTransactions,
    private readonly state: StateRepository,
  ) {}

  async list(
    tenantId: string,
    request: ListStateRequest,
  ): Promise<MessageInitShape<typeof ListStateResponseSchema>> {
    const rows = await this.transactions.run(tenantId, (manager) =>
      this.state.list(manager, request.agent, [...new Set(request.keys)]),
    );
    return {
      entries: rows.map((r) => ({
        key: r.key,
        value: r.value,
        statedAt: timestampFromDate(r.statedAt),
        updatedAt: timestampFromDate(r.updatedAt),
        sourceMessageId: r.sourceMessageId ?? '',
      })),
    };
  }
}
