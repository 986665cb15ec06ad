import { createHash } from 'node:crypto';
import type { ContextBuildResponse, EngramClient } from '@engram/client';
import type { CallOptions, LanguageModelMiddleware, OutputPart } from './ai-sdk-types';
import { recordAnswer } from './answer-stream';
import { promptWithMemory } from './memory-prompt';
import { answerMessages, stepOf, type TurnStep } from './turn-messages';

export interface EngramMemoryOptions {
  /** The conversation: Engram's recent turns, summary and turn ids are this session's. */
  readonly sessionKey: string;
  /** Whose memory; default the EngramClient's agent. */
  readonly agent?: string;
  /** The model Engram budgets the prompt for (its window and tokenizer); default the wrapped model's id. */
  readonly model?: string;
  /** At most this many tokens of Engram's blocks and the user's message; default 75 % of the model's window. */
  readonly budgetTokens?: number;
  /**
   * Where a failure of memory goes (a context that could not be built, a turn that could not be
   * published): the answer never fails for it. Default: a warning on the console.
   */
  readonly onError?: (error: unknown) => void;
}

/** The middleware, and a way to wait for the turns it is still publishing. */
export interface EngramMemory extends LanguageModelMiddleware {
  /** Resolves once every turn published so far has reached Engram (or onError). */
  flush(): Promise<void>;
}

/** Contexts kept for the later steps of their turn: enough for the turns in flight at once. */
const KEPT_CONTEXTS = 64;

/** One model call of a turn, as its answer will be stored. */
interface PendingStep {
  readonly turnId: string;
  readonly model: string;
  readonly step: TurnStep;
}

/**
 * Engram's memory as language-model middleware, for `wrapLanguageModel({ model, middleware })`.
 * Before each call, Engram's context for the user's last message goes in front of the prompt
 * (promptWithMemory); after it (generateText or streamText, each step of a tool loop), the step
 * is published as a turn of `sessionKey`, in the background: the answer, streamed or not, is
 * not held back, and a failure goes to `onError`. A step's turn id is stable (turnIdOf), so the
 * same call retried is stored once.
 */
export function engramMemory(engram: EngramClient, options: EngramMemoryOptions): EngramMemory {
  const agent = options.agent ?? engram.agent;
  if (!agent) throw new Error('engramMemory needs an agent: pass { agent } or give the EngramClient one');
  const report = reporterOf(options.onError);
  const contexts = new TurnContexts(engram, { ...options, agent }, report);
  const turns = new StepPublisher(engram, { ...options, agent }, report);
  // The step each call is, by the params transformParams gave it (wrapGenerate and wrapStream get those).
  const pending = new WeakMap<CallOptions, PendingStep>();

  return {
    specificationVersion: 'v4',
    async transformParams({ params, model }) {
      const step = stepOf(params.prompt);
      if (!step) return params;
      const modelName = options.model ?? model.modelId;
      const question = hashOf([agent, options.sessionKey, params.prompt.slice(0, step.userIndex + 1)]);
      const context = await contexts.of(question, step, modelName);
      const prompt = context ? promptWithMemory(context.blocks, params.prompt) : params.prompt;
      const transformed = { ...params, prompt };
      pending.set(transformed, { turnId: turnIdOf(params, step, question, context), model: modelName, step });
      return transformed;
    },
    async wrapGenerate({ doGenerate, params }) {
      const result = await doGenerate();
      const step = pending.get(params);
      if (step) turns.publish(step, result.content);
      return result;
    },
    async wrapStream({ doStream, params }) {
      const result = await doStream();
      const step = pending.get(params);
      if (!step) return result;
      return {
        ...result,
        stream: result.stream.pipeThrough(recordAnswer((answer) => turns.publish(step, answer))),
      };
    },
    flush: () => turns.flush(),
  };
}

/** Whose memory and which conversation: the agent and the session (and the context's budget). */
type TurnPlace = Pick<EngramMemoryOptions, 'sessionKey' | 'budgetTokens'> & { readonly agent: string };

/**
 * A step's turn id: the caller's (`providerOptions: { engram: { turnId } }`, e.g. its chat
 * message's id), or a hash of the conversation up to the user's message — and, when the caller
 * sends no history of its own, of the newest message Engram held then, so the same words said
 * again later are another turn. Each step after the first has its number after a colon.
 */
function turnIdOf(
  params: CallOptions,
  step: TurnStep,
  question: string,
  context: ContextBuildResponse | undefined,
): string {
  const own = params.providerOptions?.['engram']?.['turnId'];
  const history = params.prompt.slice(0, step.userIndex).some((message) => message.role !== 'system');
  const newest = context?.blocks.findLast((block) => block.layer === 'recent')?.sourceIds.at(-1) ?? '';
  const turn =
    typeof own === 'string' && own !== ''
      ? own
      : `ai-sdk-${hashOf([question, history ? '' : newest]).slice(0, 32)}`;
  return step.step === 0 ? turn : `${turn}:${step.step}`;
}

/**
 * Each turn's context: the first step builds it, the later steps reuse it (memory stays put while
 * a turn runs, and its own steps, stored meanwhile, are not shown twice). A context that cannot be
 * built is reported, and the call goes on without one.
 */
class TurnContexts {
  private readonly byQuestion = new Map<string, Promise<ContextBuildResponse | undefined>>();

  constructor(
    private readonly engram: EngramClient,
    private readonly place: TurnPlace,
    private readonly report: (error: unknown) => void,
  ) {}

  of(question: string, step: TurnStep, model: string): Promise<ContextBuildResponse | undefined> {
    const kept = step.step > 0 ? this.byQuestion.get(question) : undefined;
    if (kept) return kept;
    const built = this.engram
      .buildContext({
        agent: this.place.agent,
        sessionKey: this.place.sessionKey,
        currentMessage: step.question,
        model,
        budgetTokens: this.place.budgetTokens ?? 0,
      })
      .catch((error: unknown) => void this.report(error));
    this.byQuestion.delete(question);
    this.byQuestion.set(question, built);
    if (this.byQuestion.size > KEPT_CONTEXTS) this.byQuestion.delete(this.byQuestion.keys().next().value!);
    return built;
  }
}

/** Publishes each step's turn in the background, and knows which are still on their way. */
class StepPublisher {
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly engram: EngramClient,
    private readonly place: TurnPlace,
    private readonly report: (error: unknown) => void,
  ) {}

  /** Starts publishing what the step adds (its input and the model's answer); a failure is reported. */
  publish({ turnId, model, step }: PendingStep, answer: readonly OutputPart[]): void {
    const messages = [...step.input, ...answerMessages(answer)];
    if (messages.length === 0) return;
    const { agent, sessionKey } = this.place;
    const published = this.engram
      .publishTurn({ turnId, agent, sessionKey, model, messages })
      .then(() => undefined, this.report);
    this.inFlight.add(published);
    void published.finally(() => this.inFlight.delete(published));
  }

  /** Resolves once every turn started so far is published or reported. */
  async flush(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all(this.inFlight);
  }
}

/** onError, or a console warning; its own failure is swallowed, as it runs where no caller waits. */
function reporterOf(onError: ((error: unknown) => void) | undefined): (error: unknown) => void {
  return (error) => {
    try {
      if (onError) onError(error);
      else console.warn(`@engram/ai-sdk: ${error instanceof Error ? error.message : String(error)}`);
    } catch {
      // Nothing is left to tell.
    }
  };
}

/** sha256 of the JSON of a value, in hex. */
function hashOf(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex');
}
