import { createHash } from 'node:crypto';
import type { JsonObject } from '@bufbuild/protobuf';
import { Injectable } from '@nestjs/common';
import { timestampFromDate, timestampDate } from '@bufbuild/protobuf/wkt';
import { Rpcs, type Fact, type TranscriptMessage } from '@engram/contracts';
import { GertyClient } from '@engram/gerty-client';
import { RpcClient } from '@engram/messaging';
import { ApiProblem } from '../http/problem';
import { TurnPublisher } from '../turns/turn-publisher';
import { historyEntryOf, mem0Score } from './mem0-memory';
import type { z } from 'zod';
import type { addBody, searchBody, updateBody } from './mem0-requests';
import {
  entityAgent,
  factsOfExtraction,
  mem0MemoryOf,
  type Mem0Memory,
  type MessageRole,
} from '@engram/memory-core';
import type { Mem0Scope } from './mem0-scope';

/** Where a mem0 read runs in Engram: an agent and a conversation (a run), either optional. */
interface Target {
  readonly agent?: string;
  readonly conversationId?: string;
}

/** How long an add waits for ingest to store its turn before saving the memories unlinked. */
const STORED_WAIT_MS = 5000;
/** How long an add with inference waits for the model's facts. */
const EXTRACT_TIMEOUT_MS = 60_000;
const PAGE = 1000;

/**
 * mem0's memory operations on Engram: a memory is a fact of an agent (the mem0 user, else agent);
 * adding publishes the messages as a turn (every word kept, no worker extracting from it) and
 * saves as memories either each message (infer off) or the facts Gerty's extract_facts finds in
 * them (infer on), linked to the stored messages; updating supersedes the fact (kept as
 * history); deleting forgets it.
 */
@Injectable()
export class Mem0Memories {
  constructor(
    private readonly rpc: RpcClient,
    private readonly turns: TurnPublisher,
    private readonly gerty: GertyClient,
  ) {}

  async add(tenantId: string, body: z.output<typeof addBody>) {
    const ownerId = body.user_id ?? body.agent_id;
    if (!ownerId)
      throw new ApiProblem('INVALID_ARGUMENT', 'invalid request', {}, [
        { field: 'user_id', detail: 'name the memory’s owner: user_id or agent_id' },
      ]);
    const agent = entityAgent(ownerId);
    const sessionKey = body.run_id ?? 'mem0';
    const messages = (
      typeof body.messages === 'string' ? [{ role: 'user' as const, content: body.messages }] : body.messages
    ).map((m) => ({
      role: m.role,
      content: m.content,
      author: m.role === 'user' ? (body.user_id ?? m.name ?? '') : (m.name ?? ''),
      ...(body.metadata && { metadata: body.metadata }),
    }));
    const infer = body.infer ?? true;
    // The same add again (a client's retry) is the same turn, stored once.
    const turnId = `mem0-${createHash('sha256')
      .update(JSON.stringify([agent, sessionKey, messages, infer]))
      .digest('hex')
      .slice(0, 32)}`;
    // This API derives the memories itself (below): no worker extracts facts from the turn.
    await this.turns.publish(tenantId, agent, {
      turnId,
      sessionKey,
      channel: 'mem0',
      messages,
      skipFactExtraction: true,
    });
    const stored = await this.storedMessages(tenantId, agent, sessionKey, turnId);
    const conversationId = stored[0]?.conversationId;
    const memories: Array<{
      content: string;
      sourceMessageIds: readonly string[];
      category?: string;
      importance?: number;
    }> = infer
      ? await this.extracted(tenantId, messages, stored, body.user_id)
      : messages.flatMap((m, position) =>
          m.role === 'system'
            ? []
            : [{ content: m.content, sourceMessageIds: stored[position] ? [stored[position].id] : [] }],
        );
    const added: Array<Mem0Memory & { event: 'ADD'; data: { memory: string } }> = [];
    for (const found of memories) {
      const saved = await this.rpc.call(
        Rpcs.save,
        {
          agent,
          content: found.content,
          category: found.category ?? '',
          // A mem0 memory lasts until deleted or its expiration_date, whatever its category.
          lifetime: 'sticky',
          importance: found.importance ?? 0,
          ...(body.metadata && { metadata: body.metadata as JsonObject }),
          ...(conversationId && { conversationId, sourceMessageIds: [...found.sourceMessageIds] }),
        },
        { tenantId },
      );
      if (saved.deduplicated) continue;
      const fact = (await this.rpc.call(Rpcs.factsGet, { factId: saved.factId }, { tenantId })).current!;
      const memory = mem0MemoryOf(fact, { userId: body.user_id, agentId: body.agent_id, runId: body.run_id });
      added.push({ ...memory, event: 'ADD', data: { memory: memory.memory } });
    }
    return added;
  }

  /**
   * The facts Gerty's extract_facts finds in the messages, made facts as the compactor makes them
   * (factsOfExtraction: sources among the stored messages); their category's lifetime is not used.
   */
  private async extracted(
    tenantId: string,
    messages: ReadonlyArray<{ role: 'user' | 'assistant' | 'system'; content: string; author: string }>,
    stored: readonly TranscriptMessage[],
    userName: string | undefined,
  ) {
    const now = new Date().toISOString();
    const lines = messages.map((m, position) => {
      const at = stored[position]?.createdAt;
      return {
        id: stored[position]?.id ?? String(position + 1),
        at: at ? timestampDate(at).toISOString() : now,
        role: m.role,
        ...(m.author && { author: m.author }),
        text: m.content,
      };
    });
    const { output } = await this.gerty.complete(
      'extract_facts',
      { messages: lines, ...(userName && { userName }) },
      { tenantId, timeoutMs: EXTRACT_TIMEOUT_MS },
    );
    // Only stored messages can be sources: unstored lines carry made-up ids.
    const window = stored.map((m) => ({
      id: m.id,
      role: m.role as MessageRole,
      createdAt: m.createdAt ? timestampDate(m.createdAt) : new Date(now),
    }));
    return factsOfExtraction(output.facts, window);
  }

  /** The turn's messages in order once ingest stored them; empty when it did not within STORED_WAIT_MS. */
  private async storedMessages(tenantId: string, agent: string, sessionKey: string, turnId: string) {
    const until = Date.now() + STORED_WAIT_MS;
    while (Date.now() < until) {
      try {
        const page = await this.rpc.call(
          Rpcs.browse,
          { agent, sessionKey, direction: 'backward', limit: 200 },
          { tenantId },
        );
        const ours = page.messages.filter((m) => m.turnId === turnId);
        if (ours.length > 0) return ours.sort((a, b) => Number(BigInt(a.id) - BigInt(b.id)));
      } catch {
        // the conversation is not there yet
      }
      await new Promise((r) => setTimeout(r, 25));
    }
    return [];
  }

  /** Where the scope looks: one target per agent set, or per conversation of the named run. */
  private async targets(tenantId: string, scope: Mem0Scope): Promise<Target[] | 'agents'> {
    if (!scope.runs) return 'agents';
    const targets: Target[] = [];
    for (let offset = 0; ; offset += PAGE) {
      const page = await this.rpc.call(Rpcs.conversationsList, { limit: PAGE, offset }, { tenantId });
      for (const c of page.conversations)
        if (scope.runs.includes(c.sessionKey) && (!scope.agents || scope.agents.includes(c.agent)))
          targets.push({ agent: c.agent, conversationId: c.id });
      if (page.conversations.length < PAGE) return targets;
    }
  }

  private listRequest(scope: Mem0Scope, target: Target, limit: number, offset: number) {
    return {
      agents: target.agent ? [target.agent] : [...(scope.agents ?? [])],
      categories: [...(scope.categories ?? [])],
      conversationId: target.conversationId ?? '',
      ...(scope.from && { from: timestampFromDate(scope.from) }),
      ...(scope.to && { to: timestampFromDate(scope.to) }),
      ...(scope.metadata && { metadata: scope.metadata as JsonObject }),
      limit,
      offset,
    };
  }

  async list(tenantId: string, scope: Mem0Scope, page: number, pageSize: number, path: string) {
    const offset = (page - 1) * pageSize;
    const targets = await this.targets(tenantId, scope);
    let facts: Fact[];
    let total: number;
    if (targets === 'agents') {
      const answer = await this.rpc.call(Rpcs.factsList, this.listRequest(scope, {}, pageSize, offset), {
        tenantId,
      });
      [facts, total] = [answer.facts, Number(answer.total)];
    } else {
      // Several runs: each conversation's newest offset + pageSize facts, merged newest first.
      const answers = await Promise.all(
        targets.map((t) =>
          this.rpc.call(Rpcs.factsList, this.listRequest(scope, t, Math.min(PAGE, offset + pageSize), 0), {
            tenantId,
          }),
        ),
      );
      total = answers.reduce((sum, a) => sum + Number(a.total), 0);
      facts = answers
        .flatMap((a) => a.facts)
        .sort(
          (a, b) =>
            timestampDate(b.createdAt!).getTime() - timestampDate(a.createdAt!).getTime() ||
            Number(BigInt(b.id) - BigInt(a.id)),
        )
        .slice(offset, offset + pageSize);
    }
    const link = (p: number) => `${path}?page=${p}&page_size=${pageSize}`;
    return {
      count: total,
      next: offset + pageSize < total ? link(page + 1) : null,
      previous: page > 1 ? link(page - 1) : null,
      results: facts.map((f) => mem0MemoryOf(f, scope.echo)),
    };
  }

  async search(tenantId: string, scope: Mem0Scope, body: z.output<typeof searchBody>) {
    const topK = body.top_k ?? 10;
    const targets = await this.targets(tenantId, scope);
    const searches: Target[] =
      targets !== 'agents' ? targets : scope.agents ? scope.agents.map((agent) => ({ agent })) : [{}];
    const answers = await Promise.all(
      searches.map((t) =>
        this.rpc.call(
          Rpcs.search,
          {
            query: body.query,
            topK,
            // The facts themselves, not the messages they came from.
            expand: false,
            filters: {
              agent: t.agent ?? '',
              conversationId: t.conversationId ?? '',
              kinds: ['fact'],
              ...(scope.from && { from: timestampFromDate(scope.from) }),
              ...(scope.to && { to: timestampFromDate(scope.to) }),
              ...(scope.metadata && { metadata: scope.metadata as JsonObject }),
            },
          },
          { tenantId },
        ),
      ),
    );
    const hits = answers
      .flatMap((a) => a.hits)
      .filter((hit) => hit.kind === 'fact')
      .sort((a, b) => b.score - a.score)
      .filter((hit) => mem0Score(hit.score) >= (body.threshold ?? 0))
      .slice(0, topK);
    // The hits' facts whole: the memory's id (its first version), category and metadata.
    const { facts } =
      hits.length === 0
        ? { facts: [] }
        : await this.rpc.call(
            Rpcs.factsList,
            { ids: hits.map((h) => h.id), includeClosed: true, limit: hits.length },
            { tenantId },
          );
    const byId = new Map(facts.map((f) => [f.id, f]));
    return {
      results: hits.flatMap((hit) => {
        const fact = byId.get(hit.id);
        return fact ? [{ ...mem0MemoryOf(fact, scope.echo), score: mem0Score(hit.score) }] : [];
      }),
    };
  }

  /** The memory's chain, its current version open; 404 when it was deleted or never was. */
  private async live(tenantId: string, memoryId: string) {
    const history = await this.found(tenantId, memoryId);
    if (!history.current || history.current.validTo)
      throw new ApiProblem('NOT_FOUND', `memory ${memoryId} was deleted`);
    return { history, current: history.current };
  }

  private async found(tenantId: string, memoryId: string) {
    if (!/^[1-9][0-9]{0,18}$/.test(memoryId)) throw new ApiProblem('NOT_FOUND', `no memory ${memoryId}`);
    return this.rpc.call(Rpcs.factsGet, { factId: memoryId }, { tenantId });
  }

  async get(tenantId: string, memoryId: string) {
    return mem0MemoryOf((await this.live(tenantId, memoryId)).current);
  }

  /** A new version with the new text and/or metadata; the memory keeps its id. */
  async update(tenantId: string, memoryId: string, body: z.output<typeof updateBody>) {
    const { current } = await this.live(tenantId, memoryId);
    const updated = await this.rpc.call(
      Rpcs.factsUpdate,
      {
        factId: current.id,
        content: body.text ?? current.content,
        ...(body.metadata && { metadata: body.metadata as JsonObject }),
        reason: 'updated through the mem0 API',
      },
      { tenantId },
    );
    return mem0MemoryOf(updated);
  }

  async delete(tenantId: string, memoryId: string) {
    const { current } = await this.live(tenantId, memoryId);
    await this.rpc.call(
      Rpcs.forget,
      { factId: current.id, reason: 'deleted through the mem0 API' },
      { tenantId },
    );
    return { message: 'Memory deleted successfully!' };
  }

  async history(tenantId: string, memoryId: string) {
    const { versions } = await this.found(tenantId, memoryId);
    return versions.map((v, i) => historyEntryOf(memoryId, v, i));
  }

  /** Forgets every memory in the scope; answers how many. */
  async deleteAll(tenantId: string, scope: Mem0Scope): Promise<number> {
    const targets = await this.targets(tenantId, scope);
    let forgotten = 0;
    for (const target of targets === 'agents' ? [{}] : targets) {
      for (;;) {
        const page = await this.rpc.call(Rpcs.factsList, this.listRequest(scope, target, PAGE, 0), {
          tenantId,
        });
        for (const fact of page.facts)
          await this.rpc.call(
            Rpcs.forget,
            { factId: fact.id, reason: 'deleted through the mem0 API' },
            { tenantId },
          );
        forgotten += page.facts.length;
        if (page.facts.length < PAGE) break;
      }
    }
    return forgotten;
  }

  /** The tenant's mem0 entities: each agent with memories, with their count (newest memory first). */
  async entities(tenantId: string) {
    const byAgent = new Map<string, { total: number; first: string; last: string }>();
    for (let offset = 0; ; offset += PAGE) {
      const page = await this.rpc.call(Rpcs.factsList, { limit: PAGE, offset }, { tenantId });
      for (const fact of page.facts) {
        const at = timestampDate(fact.createdAt!).toISOString();
        const seen = byAgent.get(fact.agent) ?? { total: 0, first: at, last: at };
        byAgent.set(fact.agent, {
          total: seen.total + 1,
          first: at < seen.first ? at : seen.first,
          last: at > seen.last ? at : seen.last,
        });
      }
      if (page.facts.length < PAGE) break;
    }
    return [...byAgent].map(([name, e]) => ({
      id: name,
      name,
      type: 'user',
      total_memories: e.total,
      owner: tenantId,
      created_at: e.first,
      updated_at: e.last,
    }));
  }
}
