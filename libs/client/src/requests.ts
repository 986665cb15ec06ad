import {
  clone,
  create,
  isMessage,
  type DescMessage,
  type MessageInitShape,
  type MessageShape,
} from '@bufbuild/protobuf';
import {
  decodeMessage,
  encodeMessage,
  isValidToken,
  protobufReason,
  Subjects,
  timestampFromDate,
  TurnEventSchema,
  type RpcSpec,
  type Timestamp,
  type TurnEvent,
} from '@engram/contracts';
import { normalizeTurn, type TurnLimits } from '@engram/memory-core';
import { EngramInternalError, EngramInvalidArgumentError, type FieldViolation } from './errors';

/**
 * A message of `schema` from what the caller gave: a copy of a message (never the caller's own),
 * or one built from its init shape, where a JavaScript Date stands for a Timestamp (`asOf:
 * new Date(…)` means that moment, not 1970).
 */
export function messageOf<S extends DescMessage>(schema: S, init: MessageInitShape<S>): MessageShape<S> {
  if (isMessage(init, schema)) return clone(schema, init);
  const dated = withTimestamps(schema, init as Record<string, unknown>, '');
  try {
    return create(schema, dated as MessageInitShape<S>);
  } catch (error) {
    throw new EngramInvalidArgumentError(`invalid ${schema.name}: ${protobufReason(error)}`);
  }
}

/** The init with each Date in a Timestamp field (nested messages and lists too) as a Timestamp; a date that is none is refused, named. */
function withTimestamps(
  schema: DescMessage,
  init: Record<string, unknown>,
  prefix: string,
): Record<string, unknown> {
  if (typeof init !== 'object' || init === null || isMessage(init)) return init;
  const out: Record<string, unknown> = { ...init };
  for (const field of schema.fields) {
    const value = init[field.localName];
    if (
      value === undefined ||
      value === null ||
      !(field.fieldKind === 'message' || (field.fieldKind === 'list' && field.listKind === 'message'))
    )
      continue;
    const path = `${prefix}${field.jsonName}`;
    const one = (v: unknown, at: string): unknown => {
      if (field.message!.typeName === 'google.protobuf.Timestamp')
        return v instanceof Date ? timestampOf(v, at) : v;
      return typeof v === 'object' && v !== null && !Array.isArray(v)
        ? withTimestamps(field.message!, v as Record<string, unknown>, `${at}.`)
        : v;
    };
    out[field.localName] = Array.isArray(value)
      ? value.map((v, i) => one(v, `${path}[${i}]`))
      : one(value, path);
  }
  return out;
}

/** The Timestamp of a Date, within the years a Timestamp holds (0001-9999). */
function timestampOf(date: Date, field: string): Timestamp {
  const year = date.getUTCFullYear();
  if (Number.isNaN(date.getTime()) || year < 1 || year > 9999) {
    const description = `${field} is not a date between the years 1 and 9999`;
    throw new EngramInvalidArgumentError(`invalid request: ${description}`, [{ field, description }]);
  }
  return timestampFromDate(date);
}

/** The protobuf JSON of a message; a value of the wrong type for its field is the caller's INVALID_ARGUMENT, not a crash. */
export function encodeRequest<S extends DescMessage>(schema: S, message: MessageShape<S>): Uint8Array {
  try {
    return encodeMessage(schema, message);
  } catch (error) {
    throw new EngramInvalidArgumentError(`invalid ${schema.name}: ${protobufReason(error)}`);
  }
}

/** The response message of `spec` from its protobuf JSON; fields this client does not know yet are skipped. */
export function decodeResponse<S extends RpcSpec>(spec: S, body: Uint8Array): MessageShape<S['response']> {
  try {
    return decodeMessage(spec.response, body, { strict: false }) as MessageShape<S['response']>;
  } catch (error) {
    throw new EngramInternalError(
      `${spec.subject} answered what is not a ${spec.response.name}: ${protobufReason(error)}`,
    );
  }
}

/**
 * The request of `spec` with the client's agent where the caller left the agent out: the
 * request's `agent` field, or for a search its `filters.agent`. A request without either
 * (recall by refs, forget a fact id) is left as it is.
 */
export function requestWithAgent<S extends RpcSpec>(
  spec: S,
  init: MessageInitShape<S['request']>,
  agent: string | undefined,
): MessageShape<S['request']> {
  const message = messageOf(spec.request, init) as MessageShape<S['request']> & Record<string, unknown>;
  if (!agent) return message;
  const own = spec.request.field['agent'];
  if (own?.fieldKind === 'scalar') {
    if (!message['agent']) message['agent'] = agent;
    return message;
  }
  // A facts list names its agents in a list: the client's agent when it names none.
  const agents = spec.request.field['agents'];
  if (agents?.fieldKind === 'list') {
    if ((message['agents'] as string[]).length === 0) message['agents'] = [agent];
    return message;
  }
  const filters = spec.request.field['filters'];
  if (filters?.fieldKind === 'message' && filters.message.field['agent']?.fieldKind === 'scalar') {
    const current = message['filters'] as Record<string, unknown> | undefined;
    if (!current) message['filters'] = create(filters.message, { agent } as never);
    else if (!current['agent']) current['agent'] = agent;
  }
  return message;
}

/**
 * Ingest's own size limits are its configuration (INGEST_MAX_*), unknown here: the client
 * checks everything else and leaves sizes to ingest.
 */
const NO_SIZE_LIMITS: TurnLimits = {
  maxMessagesPerTurn: Number.MAX_SAFE_INTEGER,
  maxContentChars: Number.MAX_SAFE_INTEGER,
};

/**
 * What is wrong with a turn, by ingest's own rules (`normalizeTurn`), checked before it is
 * published: over NATS nothing answers a bad turn (ingest dead-letters it), so the caller
 * hears of it here or never. Empty when ingest would take it.
 */
export function turnViolations(turn: TurnEvent, agent: string, tenant: string | undefined): FieldViolation[] {
  if (!isValidToken(agent)) {
    return [{ field: 'agent', description: `agent "${agent}" must be 1 to 64 of A-Z a-z 0-9 _ -` }];
  }
  // Over HTTP the key decides the tenant; any valid token stands in for it.
  const route = tenant ?? (isValidToken(turn.tenantId) ? turn.tenantId : 'tenant');
  const checked = normalizeTurn(
    turn,
    { subject: Subjects.turn(route, agent), streamSequence: 0, receivedAt: new Date(0) },
    NO_SIZE_LIMITS,
  );
  return checked.ok ? [] : checked.problems.map(violationOfProblem);
}

/** `messages[0].role: role must be …` → that field and its sentence; a problem without a path blames its first word. */
function violationOfProblem(problem: string): FieldViolation {
  const withPath = /^([A-Za-z][\w.[\]]*): ([\s\S]+)$/.exec(problem);
  if (withPath) return { field: withPath[1]!, description: withPath[2]! };
  return { field: /^\w+/.exec(problem)?.[0] ?? 'turn', description: problem };
}

/** The turn as a message, refused with its field violations when ingest would dead-letter it. */
export function checkedTurn(
  init: MessageInitShape<typeof TurnEventSchema>,
  agent: string,
  tenant: string | undefined,
): TurnEvent {
  const turn = messageOf(TurnEventSchema, init);
  const violations = turnViolations(turn, agent, tenant);
  if (violations.length > 0) {
    throw new EngramInvalidArgumentError(
      `invalid TurnEvent: ${violations.map((v) => v.description).join('; ')}`,
      violations,
    );
  }
  return turn;
}
