import { Injectable } from '@nestjs/common';
import { parseItemRef } from '@engram/contracts';
import { TenantTransactions } from '@engram/store';
import { AccessRepository, type AccessBump } from './access.repository';

export interface AccessEvent {
  readonly tenantId: string;
  readonly eventId: string;
  readonly refs: readonly string[];
  readonly at: Date;
}

/** Bumps access statistics, once per event, one transaction per tenant. */
@Injectable()
export class RecordAccessUseCase {
  constructor(
    private readonly transactions: TenantTransactions,
    private readonly repository: AccessRepository,
  ) {}

  async record(events: readonly AccessEvent[]): Promise<void> {
    const byTenant = new Map<string, AccessEvent[]>();
    for (const e of events) byTenant.set(e.tenantId, [...(byTenant.get(e.tenantId) ?? []), e]);
    for (const [tenantId, group] of byTenant) {
      await this.transactions.run(tenantId, async (manager) => {
        // An event delivered twice in one batch counts once, like one delivered in two batches.
        const events = new Map(group.map((e) => [e.eventId, e]));
        const fresh = await this.repository.claimEvents(manager, tenantId, [...events.keys()]);
        await this.repository.bump(
          manager,
          tenantId,
          tally([...events.values()].filter((e) => fresh.has(e.eventId))),
        );
      });
    }
  }
}

/** One bump per item: how often the events name it, and the latest time. */
export function tally(events: readonly AccessEvent[]): AccessBump[] {
  const bumps = new Map<string, { kind: string; id: string; count: number; at: Date }>();
  for (const e of events) {
    for (const ref of e.refs) {
      const item = parseItemRef(ref);
      if (!item) continue;
      const b = bumps.get(ref);
      if (b) {
        b.count++;
        if (e.at > b.at) b.at = e.at;
      } else bumps.set(ref, { ...item, count: 1, at: e.at });
    }
  }
  return [...bumps.values()];
}
