import { ALL_STREAMS, Consumers, Rpcs, type ConsumerSpec, type RpcSpec } from '@engram/contracts';
import {
  announcementSubject,
  consumersOf,
  subjectName,
  subjectNodes,
  type Publisher,
} from './topology-graph';

const code = (text: string) => `\`${text}\``;
const messageName = (typeName: string) => typeName.slice(typeName.lastIndexOf('.') + 1);
const MS_PER_DAY = 86_400_000;

/** `7 d`, `2 min`, `30 s`, `250 ms`: a duration as the tables print it. */
export function duration(ms: number): string {
  if (ms % MS_PER_DAY === 0) return `${ms / MS_PER_DAY} d`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  if (ms % 1000 === 0) return `${ms / 1000} s`;
  return `${ms} ms`;
}

/** `compactor (`compactor-facts`, `compactor-sessions`), retrieval (`mem.rpc.save`)`: publishers by service. */
function publishers(all: readonly Publisher[]): string {
  const byService = new Map<string, string[]>();
  for (const p of all) {
    if (p.kind === 'outside') byService.set(p.who, []);
    else {
      const handler = code(p.kind === 'consumer' ? p.spec.durable : p.spec.subject);
      byService.set(p.spec.owner, [...(byService.get(p.spec.owner) ?? []), handler]);
    }
  }
  return (
    [...byService]
      .map(([who, handlers]) => (handlers.length ? `${who} (${handlers.join(', ')})` : who))
      .join(', ') || '—'
  );
}

const row = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
const table = (head: readonly string[], rows: readonly (readonly string[])[]) =>
  [row(head), row(head.map(() => '---')), ...rows.map(row)].join('\n');

function streamsTable(): string {
  return table(
    ['Stream', 'Subjects', 'Retention', 'Kept', 'Duplicate window', 'What it holds'],
    ALL_STREAMS.map((s) => [
      code(s.name),
      s.subjects.map(code).join(', '),
      s.retention === 'workqueue'
        ? `work queue${s.maxMsgsPerSubject ? `, ${s.maxMsgsPerSubject} pending per subject` : ''}`
        : 'limits',
      duration(s.maxAgeMs),
      duration(s.duplicateWindowMs),
      s.description,
    ]),
  );
}

function subjectsTable(): string {
  return table(
    ['Subject', 'Stream', 'Message', 'Published by', 'Consumed by'],
    subjectNodes().map((n) => [
      code(n.subject),
      code(n.stream.name),
      code(messageName(n.schema.typeName)),
      publishers(n.publishedBy),
      consumersOf(n.subject)
        .map((c) => code(c.durable))
        .join(', ') || '— (kept for its max age)',
    ]),
  );
}

const published = (names: ConsumerSpec['publishes']) =>
  names.length ? names.map((name) => code(subjectName(announcementSubject(name)))).join(', ') : '—';

function consumersTable(): string {
  return table(
    [
      'Durable',
      'Owner',
      'Reads',
      'Batch · linger · concurrency',
      'Ack wait · max deliver',
      'Publishes',
      'KEDA lag per replica',
    ],
    Object.values<ConsumerSpec>(Consumers).map((c) => [
      code(c.durable),
      c.owner,
      `${code(c.stream.name)} ${code(c.filterSubject)}`,
      `${c.runtime.batchSize} · ${duration(c.runtime.lingerMs)} · ${c.runtime.concurrency}`,
      `${duration(c.ackWaitMs)} · ${c.maxDeliver}`,
      published(c.publishes),
      c.scaleAtLag === undefined ? '—' : String(c.scaleAtLag),
    ]),
  );
}

function rpcsTable(): string {
  return table(
    ['Subject', 'Owner', 'Request → response', 'Publishes'],
    Object.values<RpcSpec>(Rpcs).map((r) => [
      `${code(r.tenantScoped ? `${r.subject}.{tenant}` : r.subject)}${r.partitioned ? ' (partitioned)' : ''}`,
      r.owner,
      `${code(messageName(r.request.typeName))} → ${code(messageName(r.response.typeName))}`,
      published(r.publishes),
    ]),
  );
}

/** The streams, subjects, consumers and RPCs of libs/contracts, as the markdown tables of docs/reference/topology.md. */
export function renderTopologyTables(): string {
  return [
    '**Streams**',
    streamsTable(),
    '**Subjects**',
    subjectsTable(),
    '**Consumers** (batch, linger and concurrency are per replica; CONSUMER_* and EMBEDDER_* override them)',
    consumersTable(),
    '**RPCs** (core NATS request/reply, queue group `engram.<subject>`)',
    rpcsTable(),
  ].join('\n\n');
}
