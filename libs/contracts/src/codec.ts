import {
  create,
  fromJsonString,
  toJsonString,
  type DescMessage,
  type MessageInitShape,
  type MessageShape,
} from '@bufbuild/protobuf';

const utf8Decoder = new TextDecoder('utf-8', { fatal: true });
const utf8Encoder = new TextEncoder();

/** The bytes on the wire do not form a valid message of the expected contract. */
export class ContractViolationError extends Error {
  override readonly name = 'ContractViolationError';
  constructor(
    readonly typeName: string,
    message: string,
  ) {
    super(message);
  }
}

/** What protobuf-es says went wrong, without its "[code] " prefix (readable in a violation or a dead letter). */
export function protobufReason(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/^\[\w+\] /, '');
}

/** Decodes the protobuf JSON mapping of a message (what any runtime publishes as plain JSON). */
export function decodeMessage<S extends DescMessage>(
  schema: S,
  data: Uint8Array,
  options: { strict: boolean },
): MessageShape<S> {
  let text: string;
  try {
    text = utf8Decoder.decode(data);
  } catch {
    throw new ContractViolationError(schema.typeName, `${schema.typeName}: payload is not valid UTF-8`);
  }
  if (text.trim() === '') {
    throw new ContractViolationError(schema.typeName, `${schema.typeName}: payload is empty`);
  }
  try {
    return fromJsonString(schema, text, { ignoreUnknownFields: !options.strict });
  } catch (error) {
    throw new ContractViolationError(schema.typeName, protobufReason(error));
  }
}

/** Encodes a message as its protobuf JSON mapping. */
export function encodeMessage<S extends DescMessage>(
  schema: S,
  value: MessageShape<S> | MessageInitShape<S>,
): Uint8Array {
  const message = isMessage(schema, value) ? value : create(schema, value as MessageInitShape<S>);
  // Defaults are written out: a JSON reader in any language sees memoryEnabled: false, not a missing key.
  return utf8Encoder.encode(toJsonString(schema, message, { alwaysEmitImplicit: true }));
}

function isMessage<S extends DescMessage>(schema: S, value: unknown): value is MessageShape<S> {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { $typeName?: string }).$typeName === schema.typeName
  );
}
