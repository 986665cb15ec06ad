import { Injectable } from '@nestjs/common';
import type { FactHistorySchema, GetFactRequest, MessageInitShape } from '@engram/contracts';
import { RpcError } from '@engram/messaging';
import { TenantTransactions } from '@engram/store';
import { factHistory } from './fact-history';
import { FactRecordsRepository } from './fact-records.repository';

/**
 * mem.rpc.facts.get: the supersession chain any version of a fact belongs to, its current
 * (last) version and its history. Another tenant's fact does not exist here (NOT_FOUND, like
 * an unknown id).
 */
@Injectable()
export class GetFactUseCase {
  constructor(
    private readonly transactions: TenantTransactions,
    private readonly records: FactRecordsRepository,
  ) {}

  async get(tenantId: string, request: GetFactRequest): Promise<MessageInitShape<typeof FactHistorySchema>> {
    const chain = await this.transactions.run(tenantId, (manager) =>
      this.records.chain(manager, request.factId),
    );
    if (chain.length === 0)
      throw RpcError.notFound(`fact ${request.factId} not found`, { factId: request.factId });
    return factHistory(chain);
  }
}
