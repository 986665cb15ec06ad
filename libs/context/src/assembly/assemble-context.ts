import { createHash } from 'node:crypto';
import { shareTokens, type LayerShares } from '../budget/layer-shares';
import { FILL_ORDER, LAYERS, STABLE_PREFIX_LAYERS, type LayerName } from '../budget/layers';
import { compactionLayer, personaLayer, snapshotLayer } from '../layers/document.layers';
import { identityText } from '../layers/identity.layer';
import { memoryLayer, scenesLayer, skillsLayer, stickyFactsLayer, toolsLayer } from '../layers/list.layers';
import { recentLayer } from '../layers/recent.layer';
import { workspaceDocumentsFor, workspaceLayer } from '../layers/workspace.layer';
import type { TokenCounter } from '../tokens/token-counter';
import type { ContextInputs } from './context-inputs';
import {
  EMPTY_LAYER,
  type ContextBlock,
  type ContextCut,
  type LayerFill,
  type LayerResult,
} from './layer-fill';

export interface AssemblyOptions {
  /** The most tokens the blocks and the current message may hold together. */
  readonly ceilingTokens: number;
  readonly shares: LayerShares;
  readonly counter: TokenCounter;
}

export interface ContextAssembly {
  readonly blocks: readonly ContextBlock[];
  readonly cut: readonly ContextCut[];
  readonly totalTokens: number;
  readonly ceilingTokens: number;
  /** Tokens the current message takes, reserved within the ceiling. */
  readonly currentMessageTokens: number;
  /** sha256 of the leading blocks that do not depend on the conversation. */
  readonly prefixHash: string;
}

/** The budget cannot hold what every prompt must: identity and the current message. */
export class ContextBudgetError extends Error {
  override readonly name = 'ContextBudgetError';
  constructor(
    readonly requiredTokens: number,
    readonly ceilingTokens: number,
  ) {
    super(
      `a budget of ${ceilingTokens} tokens cannot hold the identity and the current message (${requiredTokens} tokens)`,
    );
  }
}

/**
 * Where a memory hit is already shown: the conversation's recent messages (the ones the
 * recent layer may show) and the sticky facts.
 */
function alreadyInPrompt(inputs: ContextInputs): Map<string, string> {
  const shown = new Map<string, string>();
  for (const m of inputs.recent) shown.set(`message:${m.id}`, 'recent conversation');
  for (const f of inputs.stickyFacts) shown.set(`fact:${f.id}`, 'sticky facts');
  return shown;
}

function layerFills(
  inputs: ContextInputs,
  counter: TokenCounter,
): Record<Exclude<LayerName, 'identity'>, LayerFill> {
  const scene = inputs.agent.sceneMemory ? inputs.scene : null;
  // A scene-memory agent's soul and tools live in its persona block.
  const documents = workspaceDocumentsFor(inputs.workspace, inputs.asOf, scene ? ['soul'] : []);
  const soul = inputs.workspace.find((d) => d.kind === 'soul' && d.content.trim());
  const recent = recentLayer(inputs.recent, inputs.currentMessage, counter);
  return {
    persona: scene ? personaLayer(inputs.agent, soul, scene, counter) : EMPTY_LAYER,
    workspace: workspaceLayer(documents, counter),
    tools: scene ? EMPTY_LAYER : toolsLayer(inputs.agent.tools, counter),
    sticky_facts: stickyFactsLayer(inputs.stickyFacts, counter),
    memory: memoryLayer(inputs.memory, inputs.recentFacts, alreadyInPrompt(inputs), counter),
    skills: skillsLayer(inputs.skills, inputs.currentMessage, counter),
    scenes: scene ? scenesLayer(scene.nodes.slice(0, 5), inputs.recalled ?? null, counter) : EMPTY_LAYER,
    compaction: compactionLayer(inputs.compaction, counter),
    snapshot: scene ? snapshotLayer(scene, inputs.asOf, counter) : EMPTY_LAYER,
    recent,
  };
}

/**
 * The next prompt's blocks within the ceiling. Identity is required; every other layer
 * gets up to its share of what is left, in FILL_ORDER; what is still left then extends
 * the recent conversation. Same inputs, same blocks.
 */
export function assembleContext(inputs: ContextInputs, options: AssemblyOptions): ContextAssembly {
  const { counter, ceilingTokens, shares } = options;
  const currentMessageTokens = counter.count(inputs.currentMessage);
  const identity = identityText(inputs.agent, inputs.asOf);
  const identityTokens = counter.count(identity);
  if (identityTokens + currentMessageTokens > ceilingTokens) {
    throw new ContextBudgetError(identityTokens + currentMessageTokens, ceilingTokens);
  }
  const results = new Map<LayerName, LayerResult>();
  results.set('identity', {
    blocks: [
      {
        role: 'system',
        layer: 'identity',
        text: identity,
        tokens: identityTokens,
        sourceIds: [`agent:${inputs.agent.agent}`],
      },
    ],
    cut: [],
    used: identityTokens,
  });
  let remaining = ceilingTokens - currentMessageTokens - identityTokens;

  const fills = layerFills(inputs, counter);
  for (const layer of FILL_ORDER) {
    if (layer === 'identity') continue;
    const result = fills[layer](Math.min(shareTokens(shares[layer], ceilingTokens), remaining));
    results.set(layer, result);
    remaining -= result.used;
  }
  const recent = results.get('recent')!;
  if (remaining > 0 && recent.cut.length > 0) {
    // What the other layers left extends the conversation with older messages.
    const extended = fills.recent(recent.used + remaining);
    results.set('recent', extended);
    remaining -= extended.used - recent.used;
  }

  const blocks = LAYERS.flatMap((layer) => results.get(layer)?.blocks ?? []);
  const cut = LAYERS.flatMap((layer) => results.get(layer)?.cut ?? []);
  const totalTokens = blocks.reduce((sum, b) => sum + b.tokens, 0);
  return { blocks, cut, totalTokens, ceilingTokens, currentMessageTokens, prefixHash: prefixHashOf(blocks) };
}

/** Hash of the leading blocks from stable layers: unchanged while only the conversation moves. */
export function prefixHashOf(blocks: readonly ContextBlock[]): string {
  const prefix: Array<[string, string, string]> = [];
  for (const block of blocks) {
    if (!STABLE_PREFIX_LAYERS.includes(block.layer)) break;
    prefix.push([block.role, block.layer, block.text]);
  }
  return createHash('sha256').update(JSON.stringify(prefix)).digest('hex');
}
