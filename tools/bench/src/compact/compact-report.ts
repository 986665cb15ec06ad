import type { MachineDescription } from '../report/machine';
import { summarizeLatencies, type LatencySummary } from '../measure/latency-stats';

/** A leaf announced on mem.summary.created: its id and when the bench received the announcement (epoch ms). */
export interface LeafAnnouncement {
  readonly summaryId: string;
  readonly receivedAtMs: number;
}

/** A leaf as stored: when its newest message was stored (max messages.ingested_at, epoch ms) and when the leaf row was written. */
export interface StoredLeaf {
  readonly summaryId: string;
  readonly crossedAtMs: number;
  readonly createdAtMs: number;
}

export interface LeafLatencies {
  /** Threshold crossed (the leaf's newest message stored) → summary.created received. */
  readonly announced: LatencySummary;
  /** Threshold crossed → the leaf row written (summaries.created_at: the transaction's start). */
  readonly written: LatencySummary;
  /** Announcements with no stored leaf to match (must be 0). */
  readonly unmatched: number;
}

/**
 * The latency of each announced leaf: from the message that crossed the leaf threshold being
 * stored (the newest message under the leaf) to its announcement. A leaf announced twice (a
 * redelivery) counts once, at its first announcement.
 */
export function leafLatencies(
  announcements: readonly LeafAnnouncement[],
  leaves: readonly StoredLeaf[],
): LeafLatencies {
  const first = new Map<string, number>();
  for (const a of announcements)
    first.set(a.summaryId, Math.min(first.get(a.summaryId) ?? Infinity, a.receivedAtMs));
  const byId = new Map(leaves.map((l) => [l.summaryId, l]));
  const announced: number[] = [];
  const written: number[] = [];
  let unmatched = 0;
  for (const [id, receivedAtMs] of first) {
    const leaf = byId.get(id);
    if (!leaf) {
      unmatched++;
      continue;
    }
    announced.push(receivedAtMs - leaf.crossedAtMs);
    written.push(leaf.createdAtMs - leaf.crossedAtMs);
  }
  return { announced: summarizeLatencies(announced), written: summarizeLatencies(written), unmatched };
}

/**
 * Leaves per second while a backlog is compacted: leaves written ÷ the time from when the
 * compactor began consuming to the last leaf written (0 when none was written).
 */
export function leavesPerSecond(leaves: number, startedAtMs: number, lastLeafAtMs: number): number {
  const seconds = (lastLeafAtMs - startedAtMs) / 1000;
  return leaves > 0 && seconds > 0 ? leaves / seconds : 0;
}

export interface CompactBenchResult {
  readonly benchmark: 'compact';
  readonly finishedAt: string;
  readonly machine: MachineDescription;
  readonly settings: Record<string, string | number>;
  readonly backlog: {
    readonly conversations: number;
    readonly turns: number;
    readonly messages: number;
    readonly leaves: number;
    readonly branches: number;
    readonly roots: number;
    readonly seconds: number;
    readonly leavesPerSecond: number;
    readonly messagesSummarisedPerSecond: number;
    readonly gertyCalls?: number;
  };
  readonly steady: {
    readonly conversations: number;
    readonly turns: number;
    readonly messages: number;
    readonly turnsPerSecond: number;
    readonly seconds: number;
    readonly leaves: number;
    readonly latency: LeafLatencies;
  };
  readonly checks: Record<string, number>;
}

/** The --json line: {"leavesPerSecond","leafLatencyP95Ms"}. */
export function compactHeadline(result: Pick<CompactBenchResult, 'backlog' | 'steady'>): {
  leavesPerSecond: number;
  leafLatencyP95Ms: number;
} {
  return {
    leavesPerSecond: Math.round(result.backlog.leavesPerSecond * 10) / 10,
    leafLatencyP95Ms: Math.round(result.steady.latency.announced.p95Ms),
  };
}

const n1 = (x: number) => x.toFixed(1);

/** A readable summary of the figures. */
export function renderCompactReport(result: CompactBenchResult): string {
  const { backlog: b, steady: s } = result;
  const a = s.latency.announced;
  const w = s.latency.written;
  return [
    `compactor, built-in model (${result.machine.cores} × ${result.machine.cpu})`,
    `backlog     ${b.conversations} conversations, ${b.messages} messages → ${b.leaves} leaves, ${b.branches} branches, ${b.roots} roots in ${n1(b.seconds)} s`,
    `            ${n1(b.leavesPerSecond)} leaves/s (${Math.round(b.messagesSummarisedPerSecond)} messages summarised/s)`,
    `steady      ${s.conversations} conversations, ${n1(s.turnsPerSecond)} turns/s for ${n1(s.seconds)} s → ${s.leaves} leaves`,
    `            threshold crossed → summary.created  p50 ${n1(a.p50Ms)} ms  p95 ${n1(a.p95Ms)} ms  max ${n1(a.maxMs)} ms  (n ${a.count})`,
    `            threshold crossed → leaf written      p50 ${n1(w.p50Ms)} ms  p95 ${n1(w.p95Ms)} ms`,
  ].join('\n');
}
