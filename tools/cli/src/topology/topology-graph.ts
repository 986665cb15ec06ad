import type { DescMessage } from '@bufbuild/protobuf';
import {
  ALL_STREAMS,
  Consumers,
  DeadLetterSchema,
  Events,
  Rpcs,
  Subjects,
  subjectMatches,
  WorkItems,
  type Announcement,
  type ConsumerSpec,
  type RpcSpec,
  type StreamSpec,
} from '@engram/contracts';

/** One subject of a stream, as the docs spell it: `mem.message.stored.{tenant}`. */
export interface SubjectNode {
  readonly subject: string;
  readonly stream: StreamSpec;
  readonly schema: DescMessage;
  /** Who publishes it: consumers and RPCs of the topology, or an outsider. */
  readonly publishedBy: readonly Publisher[];
}

export type Publisher =
  | { readonly kind: 'consumer'; readonly spec: ConsumerSpec }
  | { readonly kind: 'rpc'; readonly spec: RpcSpec }
  | { readonly kind: 'outside'; readonly who: string };

/** The durable consumers that read a subject. */
export function consumersOf(subject: string): ConsumerSpec[] {
  return Object.values<ConsumerSpec>(Consumers).filter((c) => subjectMatches(c.filterSubject, subject));
}

/** The subject of an event or work item, with placeholders for its tokens. */
export function announcementSubject(name: Announcement): string {
  return name in Events
    ? Events[name as keyof typeof Events].subject('{tenant}')
    : WorkItems[name as keyof typeof WorkItems].subject('{tenant}', '{key}');
}

/** What the docs call a subject: `message.stored` for `mem.message.stored.{tenant}`. */
export const subjectName = (subject: string) => subject.replace(/^mem\./, '').replace(/\.\{.*$/, '');

/** The stream whose subjects cover a subject; every subject Engram publishes has one. */
function streamOf(subject: string): StreamSpec {
  const stream = ALL_STREAMS.find((s) => s.subjects.some((filter) => subjectMatches(filter, subject)));
  if (!stream) throw new Error(`no stream holds ${subject}`);
  return stream;
}

function publishersOf(name: Announcement): Publisher[] {
  return [
    ...Object.values<ConsumerSpec>(Consumers)
      .filter((c) => c.publishes.includes(name))
      .map((spec) => ({ kind: 'consumer' as const, spec })),
    ...Object.values<RpcSpec>(Rpcs)
      .filter((r) => r.publishes.includes(name))
      .map((spec) => ({ kind: 'rpc' as const, spec })),
  ];
}

/** Every subject a stream holds: the turn, each event and work item, the dead letters. */
export function subjectNodes(): SubjectNode[] {
  const node = (subject: string, schema: DescMessage, publishedBy: Publisher[]): SubjectNode => ({
    subject,
    stream: streamOf(subject),
    schema,
    publishedBy,
  });
  const announcements = [...Object.keys(Events), ...Object.keys(WorkItems)] as Announcement[];
  return [
    node(Subjects.turn('{tenant}', '{agent}'), Consumers.ingestTurns.schema, [
      { kind: 'outside', who: 'agent runtimes' },
    ]),
    ...announcements.map((name) =>
      node(
        announcementSubject(name),
        name in Events
          ? Events[name as keyof typeof Events].schema
          : WorkItems[name as keyof typeof WorkItems].schema,
        publishersOf(name),
      ),
    ),
    node(Subjects.deadLetter('{stream}', '{consumer}'), DeadLetterSchema, [
      { kind: 'outside', who: 'the transport, for any consumer; the outbox relay' },
    ]),
  ];
}
