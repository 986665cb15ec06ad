/**
 * Every NATS subject and JetStream stream name Engram uses. Nothing else in the
 * code base spells a subject: it builds one from here.
 *
 * Tokens that carry a tenant or an agent must be NATS-safe: see `isValidToken`.
 */

/** Tenant ids and agent names become subject tokens, so they may not hold `.`, `*`, `>` or spaces. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export function isValidToken(value: string): boolean {
  return TOKEN_PATTERN.test(value);
}

export const Subjects = {
  /** An agent runtime publishes each turn here. */
  turn: (tenantId: string, agent: string) => `mem.turn.${tenantId}.${agent}`,
  turnWildcard: 'mem.turn.>',
  messageStored: (tenantId: string) => `mem.message.stored.${tenantId}`,
  messageStoredWildcard: 'mem.message.stored.>',
  summaryCreated: (tenantId: string) => `mem.summary.created.${tenantId}`,
  summaryCreatedWildcard: 'mem.summary.created.>',
  compactionCreated: (tenantId: string) => `mem.compaction.created.${tenantId}`,
  compactionCreatedWildcard: 'mem.compaction.created.>',
  factUpserted: (tenantId: string) => `mem.fact.upserted.${tenantId}`,
  factUpsertedWildcard: 'mem.fact.upserted.>',
  embeddingWritten: (tenantId: string) => `mem.embedding.written.${tenantId}`,
  embeddingWrittenWildcard: 'mem.embedding.written.>',
  accessRecorded: (tenantId: string) => `mem.access.recorded.${tenantId}`,
  accessRecordedWildcard: 'mem.access.recorded.>',
  patrolCompleted: (tenantId: string) => `mem.patrol.completed.${tenantId}`,
  patrolCompletedWildcard: 'mem.patrol.completed.>',
  memoryErased: (tenantId: string) => `mem.memory.erased.${tenantId}`,
  memoryErasedWildcard: 'mem.memory.erased.>',
  toolSynthesis: (tenantId: string, messageId: string) => `mem.work.toolsynth.${tenantId}.${messageId}`,
  toolSynthesisWildcard: 'mem.work.toolsynth.>',
  deadLetter: (stream: string, consumer: string) => `mem.deadletter.${stream}.${consumer}`,
  deadLetterWildcard: 'mem.deadletter.>',
  /**
   * Core NATS, no stream: `engram apikey revoke` announces a revoked key's id here so every api
   * replica drops it from its cache at once (the cache's time limit covers a missed notice).
   */
  apiKeyRevoked: 'mem.control.apikey.revoked',
  /** Core NATS, no stream: every replica of every service says it is there, every 5 s (ServiceHeartbeat). */
  heartbeat: (service: string) => `mem.control.heartbeat.${service}`,
  heartbeatWildcard: 'mem.control.heartbeat.*',
  /** JetStream's advisory when a consumer gave up on a message (its process died on every try). */
  maxDeliveriesAdvisory: (stream: string, consumer: string) =>
    `$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES.${stream}.${consumer}`,
} as const;

/** Parses `mem.turn.{tenant}.{agent}`; null when the subject has another shape. */
export function parseTurnSubject(subject: string): { tenantId: string; agent: string } | null {
  const parts = subject.split('.');
  if (parts.length !== 4 || parts[0] !== 'mem' || parts[1] !== 'turn') return null;
  return { tenantId: parts[2]!, agent: parts[3]! };
}

/** Parses `mem.work.toolsynth.{tenant}.{message}`; null when the subject has another shape. */
export function parseToolSynthesisSubject(subject: string): { tenantId: string; messageId: string } | null {
  const parts = subject.split('.');
  if (parts.length !== 5 || parts.slice(0, 3).join('.') !== 'mem.work.toolsynth') return null;
  return { tenantId: parts[3]!, messageId: parts[4]! };
}

/** Parses the tenant token that ends every tenant-scoped subject. */
export function tenantOfSubject(subject: string): string {
  return subject.slice(subject.lastIndexOf('.') + 1);
}

/** The subjects whose last token is the tenant (events): `mem.message.stored.{tenant}` and the like. */
const TENANT_LAST = Object.values<unknown>(Subjects)
  .filter((s): s is string => typeof s === 'string' && s.endsWith('.>'))
  .map((wildcard) => wildcard.slice(0, -1))
  // `mem.x.y.` then the tenant; turns and work items have their own parsers, dead letters no tenant.
  .filter((prefix) => prefix.split('.').length === 4 && prefix !== 'mem.work.toolsynth.');

/**
 * The tenant a message on a stream subject belongs to (a turn, an event, a work item); null for
 * a subject that names none. Dead letters are shown to the tenant of their original subject.
 */
export function tenantOfStreamSubject(subject: string): string | null {
  const turn = parseTurnSubject(subject);
  if (turn) return turn.tenantId;
  const work = parseToolSynthesisSubject(subject);
  if (work) return work.tenantId;
  const prefix = TENANT_LAST.find((p) => subject.startsWith(p));
  if (!prefix) return null;
  const tenant = subject.slice(prefix.length);
  return isValidToken(tenant) ? tenant : null;
}

/** Whether a NATS filter (`*` one token, `>` one or more at the end) matches a subject. */
export function subjectMatches(filter: string, subject: string): boolean {
  const f = filter.split('.');
  const s = subject.split('.');
  for (let i = 0; i < f.length; i++) {
    if (f[i] === '>') return s.length > i;
    if (i >= s.length || (f[i] !== '*' && f[i] !== s[i])) return false;
  }
  return f.length === s.length;
}
