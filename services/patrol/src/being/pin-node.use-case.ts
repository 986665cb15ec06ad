import { Injectable } from '@nestjs/common';
import type { PinNodeRequest } from '@engram/contracts';
import { TenantTransactions } from '@engram/store';
import { BeingNodesRepository } from './being-nodes.repository';
import type { StoredNode } from './scene-node';

/**
 * mem.rpc.being.nodes.pin: pins or unpins a scene node of the being (a pinned node never dies, so
 * pinning a dying or dead one makes it active again). Null when the being has no such node.
 */
@Injectable()
export class PinNodeUseCase {
  constructor(
    private readonly transactions: TenantTransactions,
    private readonly nodes: BeingNodesRepository,
  ) {}

  pin(tenantId: string, request: PinNodeRequest): Promise<StoredNode | null> {
    return this.transactions.run(tenantId, (m) =>
      this.nodes.pin(m, request.agent, request.nodeId, request.pinned),
    );
  }
}
