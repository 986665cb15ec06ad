import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { RpcError } from '@engram/messaging';

/** What a tool answers: text for the assistant, and the same as data where that helps a program. */
export interface ToolAnswer {
  readonly text: string;
  readonly structured?: Record<string, unknown>;
}

/** A successful tool result. */
export function toolResult({ text, structured }: ToolAnswer): CallToolResult {
  return { content: [{ type: 'text', text }], ...(structured && { structuredContent: structured }) };
}

interface FieldViolation {
  readonly field: string;
  readonly description: string;
}

/** The field violations an INVALID_ARGUMENT carries (details.fieldViolations), if any. */
function violationsOf(error: RpcError): FieldViolation[] {
  const list = error.details['fieldViolations'];
  if (!Array.isArray(list)) return [];
  return list.filter(
    (v): v is FieldViolation =>
      typeof v === 'object' && v !== null && typeof v.field === 'string' && typeof v.description === 'string',
  );
}

/**
 * A field of the RPC's request by the name the tool's argument has: the field itself when the
 * tool takes it, else its last segment when that is one ("filters.conversationId" →
 * "conversationId"), else the field as the RPC named it.
 */
export function argumentName(field: string, toolArguments: readonly string[]): string {
  if (toolArguments.includes(field)) return field;
  const last = field.slice(field.lastIndexOf('.') + 1).replace(/\[\d+\]$/, '');
  return toolArguments.includes(last) ? field.slice(field.lastIndexOf('.') + 1) : field;
}

/** What the assistant (or its user) should do about an RPC failure, by its code. */
function sentenceFor(error: RpcError, toolArguments: readonly string[]): string {
  const service =
    typeof error.details['service'] === 'string' ? `Engram's ${error.details['service']}` : 'Engram';
  switch (error.code) {
    case 'INVALID_ARGUMENT': {
      const violations = violationsOf(error);
      if (violations.length === 0)
        return `Engram refused the arguments: ${error.message}. Correct them and call again.`;
      return [
        'Engram refused the arguments; correct them and call again:',
        ...violations.map((v) => `- ${argumentName(v.field, toolArguments)}: ${v.description}`),
      ].join('\n');
    }
    case 'NOT_FOUND':
      return `Not found: ${error.message}.`;
    case 'FAILED_PRECONDITION':
      return `Engram cannot do this now: ${error.message}.`;
    case 'PERMISSION_DENIED':
      return `Not allowed: ${error.message}.`;
    case 'RESOURCE_EXHAUSTED':
      return `${service} is busy (${error.message}). Try again in a few seconds.`;
    case 'UNAVAILABLE':
      return `${service} is not answering (${error.message}). Engram may be starting or stopped: check that it runs (npm start, or the deployment) and call again; memory is not available until then.`;
    case 'DEADLINE_EXCEEDED':
      return `${service} did not answer in time (${error.message}). Try again, perhaps asking for less (a smaller topK or limit).`;
    case 'INTERNAL':
      return `${service} failed (${error.message}); the service logged the details. Trying again may help; if it keeps failing, report it to whoever runs Engram.`;
  }
}

/**
 * A failed call as a tool result (`isError`), never a thrown error: the session goes on and
 * the assistant reads what went wrong and what to do. An RpcError says it by its code (each
 * bad field by the tool's argument name); anything else is an unexpected failure of the tool.
 */
export function toolError(error: unknown, toolArguments: readonly string[]): CallToolResult {
  if (error instanceof RpcError) {
    const violations = violationsOf(error);
    return {
      content: [{ type: 'text', text: sentenceFor(error, toolArguments) }],
      structuredContent: {
        error: {
          code: error.code,
          message: error.message,
          ...(violations.length > 0 && {
            fieldViolations: violations.map((v) => ({
              ...v,
              argument: argumentName(v.field, toolArguments),
            })),
          }),
        },
      },
      isError: true,
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return {
    content: [{ type: 'text', text: `The tool failed unexpectedly: ${message}` }],
    structuredContent: { error: { code: 'INTERNAL', message } },
    isError: true,
  };
}
