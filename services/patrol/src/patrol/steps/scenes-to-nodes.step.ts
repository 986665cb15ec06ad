import { Inject, Injectable } from '@nestjs/common';
import {
  clampImportance,
  classifyRoot,
  embeddingText,
  JOIN_THRESHOLD,
  mostSimilar,
  PARSE_FAILED,
  ROOT_PROTOTYPES,
  sceneSchema,
  storedScene,
  vectorLiteral,
  type Scene,
} from '@engram/being';
import { TenantTransactions, type EntityManager, type MemoryNodeRow, type NoteRow } from '@engram/store';
import { PATROL_CONFIG, type PatrolConfig } from '../../patrol.config';
import { PatrolGertyGateway } from '../patrol-gerty.gateway';
import type { Planned, PatrolRun, MechanicalStep, StepCounts } from '../patrol-step';
import { SceneNodesRepository } from '../scene-nodes.repository';

/** A scene note on its way to becoming a node: where it goes and its vector. */
interface NewNode {
  readonly noteId: string;
  readonly scene: Scene;
  readonly importance: number;
  readonly themes: string[];
  readonly emotion: unknown;
  readonly vector: number[];
  readonly clusterId: string;
  /** Into a sub-cluster (true) or, classified, into a root (false). */
  readonly joined: boolean;
  readonly root: 'business' | 'private' | null;
}

interface ScenesPlan {
  readonly model: string;
  readonly nodes: NewNode[];
  /** Nodes without a vector of the current model (kept from before, or a model change). */
  readonly reembedded: Array<{ id: string; vector: number[] }>;
  /** Scene notes whose stored scene is not a scene (written around the RPC): marked, kept. */
  readonly unparsed: string[];
}

/**
 * ❶ Scene notes → nodes: each pending scene note becomes a fresh node (importance clamped to
 * 0..1, 0.5 when absent; a scene without a date is dated the day its note was written),
 * embedded (when + action + feeling) in one batch, and placed in the most similar
 * sub-cluster at cosine ≥ 0.45, else classified Business or Private (nearest root
 * prototype, so it runs on the built-in model) and put in that root. The affected
 * clusters' mean vectors are recomputed. A note becomes at most one node (its natural key);
 * a new node's importance is its first point in node_history.
 */
@Injectable()
export class ScenesToNodesStep implements MechanicalStep<ScenesPlan> {
  readonly step = 'scenes';

  constructor(
    private readonly transactions: TenantTransactions,
    private readonly gateway: PatrolGertyGateway,
    private readonly nodes: SceneNodesRepository,
    @Inject(PATROL_CONFIG) private readonly config: PatrolConfig,
  ) {}

  async plan(run: PatrolRun): Promise<Planned<ScenesPlan>> {
    const { notes, clusters } = await this.transactions.run(run.tenantId, async (m) => ({
      notes: await this.pendingNotes(m, run.agent),
      clusters: await this.nodes.clusters(m, run.agent),
    }));
    const unparsed: string[] = [];
    const scenes = notes.flatMap((n) => {
      const parsed = sceneSchema.safeParse(n.scene);
      if (!parsed.success) {
        unparsed.push(n.id);
        return [];
      }
      const scene = parsed.data;
      return [{ ...n, scene: scene.when.length > 0 ? scene : { ...scene, when: [n.written_on] } }];
    });
    // The root prototypes ride along: they also say which model embeds today.
    const embedded = await this.gateway.embed(run.tenantId, [
      ROOT_PROTOTYPES.business,
      ROOT_PROTOTYPES.private,
      ...scenes.map((n) => embeddingText(n.scene, n.scene.feeling ?? null)),
    ]);
    const stale = await this.transactions.run(run.tenantId, (m) =>
      this.nodesToEmbed(m, run.agent, embedded.model),
    );
    if (notes.length === 0 && stale.length === 0) return { skip: 'no new scenes' };

    const [business, privateLife, ...vectors] = embedded.vectors;
    const roots = Object.fromEntries(clusters.filter((c) => c.root).map((c) => [c.root!, c.id]));
    const subClusters = clusters
      .filter((c) => c.root === null && c.centroid !== null && c.centroidModel === embedded.model)
      .map((c) => ({ id: c.id, vector: c.centroid! }));
    const planned: NewNode[] = scenes.map((n, i) => {
      const vector = vectors[i]!;
      const match = mostSimilar(vector, subClusters, JOIN_THRESHOLD);
      const root = match ? null : classifyRoot(vector, { business: business!, private: privateLife! });
      return {
        noteId: n.id,
        scene: n.scene,
        importance: clampImportance(n.importance),
        themes: n.themes,
        emotion: n.emotion,
        vector,
        clusterId: match ? match.id : roots[root!]!,
        joined: match !== null,
        root,
      };
    });
    const reembedded = stale.length
      ? (
          await this.gateway.embed(
            run.tenantId,
            stale.map((s) => embeddingText(storedScene(s.scene), s.feeling)),
          )
        ).vectors.map((vector, i) => ({ id: stale[i]!.id, vector }))
      : [];
    return { plan: { model: embedded.model, nodes: planned, reembedded, unparsed } };
  }

  async apply(manager: EntityManager, run: PatrolRun, plan: ScenesPlan): Promise<StepCounts> {
    const created: string[] = [];
    for (const n of plan.nodes) {
      const inserted: Array<{ id: string }> = await manager.query(
        `INSERT INTO memory_nodes (tenant_id, agent, scene, feeling, importance, cluster_id, themes, emotion,
                                   embedding, embedding_model, source_note_id)
         VALUES ($1, $2, $3::jsonb, $4, $5, $6, $7, $8::jsonb, $9::halfvec, $10, $11)
         ON CONFLICT (tenant_id, source_note_id) DO NOTHING RETURNING id::text`,
        [
          run.tenantId,
          run.agent,
          JSON.stringify(n.scene),
          n.scene.feeling ?? null,
          n.importance,
          n.clusterId,
          n.themes,
          n.emotion === null ? null : JSON.stringify(n.emotion),
          vectorLiteral(n.vector),
          plan.model,
          n.noteId,
        ],
      );
      created.push(...inserted.map((r) => r.id));
    }
    // The first point of each new node's importance curve: its value as the scene gave it.
    if (created.length > 0)
      await this.nodes.recordHistory(manager, run.tenantId, run.agent, run.runId, 'scenes', created);
    await manager.query(
      `UPDATE notes SET processed_at = now() WHERE id = ANY($1::bigint[]) AND processed_at IS NULL`,
      [plan.nodes.map((n) => n.noteId)],
    );
    await manager.query(
      `UPDATE notes SET parse_failed = true, content = $2 || ' ' || content WHERE id = ANY($1::bigint[]) AND NOT parse_failed`,
      [plan.unparsed, PARSE_FAILED],
    );
    for (const r of plan.reembedded)
      await manager.query(
        `UPDATE memory_nodes SET embedding = $2::halfvec, embedding_model = $3, updated_at = now() WHERE id = $1`,
        [r.id, vectorLiteral(r.vector), plan.model],
      );
    await this.nodes.recomputeCentroids(manager, run.agent);
    return {
      nodes: created.length,
      joined: plan.nodes.filter((n) => n.joined).length,
      business: plan.nodes.filter((n) => n.root === 'business').length,
      private: plan.nodes.filter((n) => n.root === 'private').length,
      reembedded: plan.reembedded.length,
      unparsed: plan.unparsed.length,
    };
  }

  private pendingNotes(
    manager: EntityManager,
    agent: string,
  ): Promise<
    Array<
      Pick<NoteRow, 'id' | 'scene' | 'importance' | 'themes' | 'emotion'> & { readonly written_on: string }
    >
  > {
    return manager.query(
      `SELECT id::text, scene, importance, themes, emotion, created_at::date::text AS written_on FROM notes
        WHERE agent = $1 AND kind = 'scene' AND processed_at IS NULL AND NOT parse_failed
        ORDER BY id LIMIT $2`,
      [agent, this.config.PATROL_SCENES_PER_RUN],
    );
  }

  /** Nodes without a vector of `model` (kept from before being memory, or embedded by another model). */
  private nodesToEmbed(
    manager: EntityManager,
    agent: string,
    model: string,
  ): Promise<Array<Pick<MemoryNodeRow, 'id' | 'scene' | 'feeling'>>> {
    return manager.query(
      `SELECT id::text, scene, feeling FROM memory_nodes
        WHERE agent = $1 AND (embedding IS NULL OR embedding_model <> $2) ORDER BY id LIMIT $3`,
      [agent, model, this.config.PATROL_SCENES_PER_RUN],
    );
  }
}
