import { Subjects, type ConsumerSpec } from '@engram/contracts';
import { announcementSubject, consumersOf, subjectName } from './topology-graph';

interface Edge {
  readonly from: string;
  readonly to: string;
  readonly what: string;
  readonly durables: string[];
}

const RUNTIME = 'runtime';
const UNREAD = 'unread';

/**
 * Follows one turn through the consumers: from the consumers of its subject, along what
 * each one publishes, to the consumers of that. An edge joins two services and names the
 * subject and the consumers that carry it; what nobody consumes goes to UNREAD.
 */
export function turnFlowEdges(): Edge[] {
  const edges = new Map<string, Edge>();
  const add = (from: string, to: string, subject: string, durable?: string) => {
    const key = `${from}|${to}|${subject}`;
    const edge = edges.get(key) ?? { from, to, what: subjectName(subject), durables: [] };
    if (durable && !edge.durables.includes(durable)) edge.durables.push(durable);
    edges.set(key, edge);
  };
  const turn = Subjects.turn('{tenant}', '{agent}');
  const queue: ConsumerSpec[] = consumersOf(turn);
  queue.forEach((c) => add(RUNTIME, c.owner, turn, c.durable));
  const seen = new Set(queue.map((c) => c.durable));
  while (queue.length) {
    const consumer = queue.shift()!;
    for (const name of consumer.publishes) {
      const subject = announcementSubject(name);
      const readers = consumersOf(subject);
      if (!readers.length) add(consumer.owner, UNREAD, subject);
      for (const reader of readers) {
        add(consumer.owner, reader.owner, subject, reader.durable);
        if (!seen.has(reader.durable)) {
          seen.add(reader.durable);
          queue.push(reader);
        }
      }
    }
  }
  return [...edges.values()];
}

/** The Mermaid flowchart of one turn through the services, drawn from the topology. */
export function renderTurnFlow(): string {
  const lines = turnFlowEdges().map((e) => {
    const label = e.durables.length ? `${e.what}<br/>${e.durables.join(', ')}` : e.what;
    return `  ${e.from} ${e.to === UNREAD ? '-.->' : '-->'}|"${label}"| ${e.to}`;
  });
  return [
    '```mermaid',
    'flowchart LR',
    `  ${RUNTIME}([agent runtime])`,
    `  ${UNREAD}[("kept in its stream,<br/>no consumer yet")]`,
    ...lines,
    '```',
  ].join('\n');
}
