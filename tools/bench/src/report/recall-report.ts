import type { LatencySummary } from '../measure/latency-stats';
import type { MissesByReach } from '../measure/shared-words';
import type { StandardSummary } from '../measure/standard-recall';
import type { SearchFigures } from '../run/ask-questions';
import type { IngestFigures } from '../run/retrieval-stack';

const n0 = (x: number) => Math.round(x).toLocaleString('en-US');
const ms = (x: number) => `${x.toFixed(1)} ms`;

/**
 * Rows as a table: the first and last columns left-aligned, the figures between them
 * right-aligned; an empty row is a blank line.
 */
export function renderAligned(rows: ReadonlyArray<readonly string[]>): string {
  const columns = Math.max(...rows.map((r) => r.length));
  const widths = Array.from({ length: columns }, (_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows
    .map((r) =>
      r.length === 0
        ? ''
        : r
            .map((cell, i) =>
              i === 0 || i === columns - 1 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!),
            )
            .join('  ')
            .trimEnd(),
    )
    .join('\n');
}

/** One row of a table of standard measures: a name, its summary, how many questions. */
export interface StandardRow {
  readonly name: string;
  readonly summary: StandardSummary | null;
  readonly questions: string;
  readonly note?: string;
}

/** Standard measures (`measures`, e.g. "any@5", "ndcg@10") as a table under `title`. */
export function renderStandardTable(
  title: string,
  measures: readonly string[],
  rows: readonly StandardRow[],
): string {
  return renderAligned([
    [title, ...measures, 'questions', ''],
    ...rows.map((r) =>
      r.name === ''
        ? []
        : [
            r.name,
            ...measures.map((m) => (r.summary?.[m] === undefined ? '' : r.summary[m].toFixed(1))),
            r.questions,
            r.note ?? '',
          ],
    ),
  ]);
}

/** The line that says how many misses full text could not have found. */
export function renderReach(reach: MissesByReach, of: string): string {
  return (
    `reach      ${of}: ${reach.misses} of ${reach.questions} questions miss their evidence in the first ${reach.k}; ` +
    `${reach.missesWithoutSharedWords} of those share no content word with it (nor with the turn before it): only meaning could find them`
  );
}

/** The search and ingest lines every recall bench prints under its tables. */
export function renderRunLines(run: {
  readonly search: SearchFigures;
  readonly topK: number;
  readonly concurrency: number;
  readonly turns: number;
  readonly ingest: IngestFigures;
}): string[] {
  const { search, ingest } = run;
  const latency = (l: LatencySummary) => `p50 ${ms(l.p50Ms)}, p95 ${ms(l.p95Ms)}`;
  return [
    `search     ${n0(search.requests)} memory_search requests (topK ${run.topK}, ${run.concurrency} at once): ` +
      `${latency(search.latency)} at the client (service took ${latency(search.serviceTook)})`,
    `           answered by ${Object.entries(search.answeredBy)
      .map(([by, n]) => `${by} ${n0(n)}`)
      .join(
        ', ',
      )}${search.indexLoadMs === null ? '' : `; the tenant's index answered ${n0(search.indexLoadMs)} ms after the first search`}`,
    `           degraded ${n0(search.degraded)}${
      Object.keys(search.degradedReasons).length
        ? ` (${Object.entries(search.degradedReasons)
            .map(([why, n]) => `${why}: ${n}`)
            .join('; ')})`
        : ''
    }; ` +
      `${search.meanHits.toFixed(1)} hits per answer (${
        Object.entries(search.hitsByKind)
          .map(([k, n]) => `${k} ${n0(n)}`)
          .join(', ') || 'none'
      })`,
    `ingest     ${n0(run.turns)} turns: published in ${ingest.publishSeconds.toFixed(1)} s, stored in ${ingest.storedSeconds.toFixed(1)} s, ` +
      `every vector in ${ingest.embeddedSeconds.toFixed(1)} s (from the first publish)`,
  ];
}
