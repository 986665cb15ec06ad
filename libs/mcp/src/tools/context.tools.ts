import { toJson } from '@bufbuild/protobuf';
import { ContextBuildResponseSchema, MAX_CONTENT_BYTES, Rpcs, timestampFromDate } from '@engram/contracts';
import { instant, integer, rowId, text } from '../arguments';
import { defineTool } from '../memory-tool';
import { renderContext } from '../render';

/** Longest model name an argument may be. */
const MAX_MODEL_CHARS = 200;
/** A budget beyond any model's window; the service lowers it to 75 % of the model's anyway. */
const MAX_BUDGET_TOKENS = 10_000_000;

export const contextBuild = defineTool({
  name: 'context_build',
  title: 'Build the next prompt',
  description: [
    "Build the prompt this agent should answer the current message with, from its memory and within a token budget: who it is, its workspace and tools, sticky facts, memories relevant to the message, matching skills, the conversation's summary and recent turns.",
    'Use it at the start of a turn to get everything memory holds for it in one piece (memory_search gives single items instead).',
    "Returns the blocks in the order to send them (role, layer, tokens, text), then what was left out and why; the total stays within 75 % of the model's window or budgetTokens. The current message itself is not among the blocks: it goes last.",
    'Name the conversation by sessionKey or conversationId (not both); without either, the prompt has no conversation layers.',
  ].join(' '),
  arguments: {
    currentMessage: text('The message the prompt is for (what the user just said)', MAX_CONTENT_BYTES),
    sessionKey: text('The conversation as the runtime names it (its session key)', 1000).optional(),
    conversationId: rowId('conversation', 'The conversation by its id').optional(),
    model: text(
      'The model the prompt is for (its window and tokenizer decide the budget), e.g. "gpt-4o-mini"; unknown models get 8,192 tokens',
      MAX_MODEL_CHARS,
    ).optional(),
    budgetTokens: integer(
      "At most this many tokens; default and at most 75 % of the model's window",
      1,
      MAX_BUDGET_TOKENS,
    ).optional(),
    asOf: instant(
      'The moment the prompt is for: its date, and nothing said after it (the conversation, facts and memories as they were then); default now',
    ).optional(),
  },
  annotations: { readOnlyHint: true },
  async run(args, scope) {
    const context = await scope.call(Rpcs.contextBuild, {
      agent: scope.agent,
      currentMessage: args.currentMessage,
      sessionKey: args.sessionKey ?? '',
      conversationId: args.conversationId ?? '',
      model: args.model ?? '',
      budgetTokens: args.budgetTokens ?? 0,
      ...(args.asOf && { asOf: timestampFromDate(args.asOf) }),
    });
    return {
      text: renderContext(context),
      structured: toJson(ContextBuildResponseSchema, context, { alwaysEmitImplicit: true }) as Record<
        string,
        unknown
      >,
    };
  },
});
