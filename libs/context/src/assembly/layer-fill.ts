import type { LayerName } from '../budget/layers';
import { fitText } from '../tokens/fit-text';
import type { TokenCounter } from '../tokens/token-counter';

export type BlockRole = 'system' | 'user' | 'assistant';

export interface ContextBlock {
  readonly role: BlockRole;
  readonly layer: LayerName;
  readonly text: string;
  readonly tokens: number;
  readonly sourceIds: readonly string[];
}

/** What a layer left out, and why. */
export interface ContextCut {
  readonly layer: LayerName;
  readonly reason: string;
  readonly tokens: number;
  readonly sourceIds: readonly string[];
}

export interface LayerResult {
  readonly blocks: readonly ContextBlock[];
  readonly cut: readonly ContextCut[];
  readonly used: number;
}

/** A layer filled within a number of tokens; called again with more when tokens are left over. */
export type LayerFill = (capTokens: number) => LayerResult;

export const EMPTY_LAYER: LayerFill = () => ({ blocks: [], cut: [], used: 0 });

export interface ListItem {
  readonly text: string;
  readonly sourceIds: readonly string[];
}

/** A block's share is full: the reason a cut gives. */
export function shareFull(layer: LayerName, cap: number): string {
  return `the ${layer} share of ${cap} tokens is full`;
}

/**
 * One block: a header and as many items as fit, in their order, skipping any that does
 * not fit (a smaller one after it may). Items are counted one by one and the block as a
 * whole is checked at the end, so the bound holds whatever the tokenizer merges.
 */
export function fillList(options: {
  layer: LayerName;
  role: BlockRole;
  header: string;
  items: readonly ListItem[];
  counter: TokenCounter;
  cap: number;
  separator?: string;
}): LayerResult {
  const { layer, role, header, items, counter, cap } = options;
  const separator = options.separator ?? '\n';
  if (items.length === 0) return { blocks: [], cut: [], used: 0 };
  const headerTokens = counter.count(header);
  const separatorTokens = counter.count(separator);
  const costs = items.map((item) => counter.count(item.text) + separatorTokens);
  let kept: number[] = [];
  let spent = headerTokens;
  items.forEach((_, i) => {
    if (spent + costs[i]! <= cap) {
      kept.push(i);
      spent += costs[i]!;
    }
  });
  const render = (indexes: number[]) => [header, ...indexes.map((i) => items[i]!.text)].join(separator);
  let text = render(kept);
  let tokens = kept.length ? counter.count(text) : 0;
  while (kept.length && tokens > cap) {
    kept = kept.slice(0, -1);
    text = render(kept);
    tokens = kept.length ? counter.count(text) : 0;
  }
  const keptSet = new Set(kept);
  const cut = items
    .map((item, i) => ({ item, i }))
    .filter(({ i }) => !keptSet.has(i))
    .map(({ item, i }) => ({
      layer,
      reason: shareFull(layer, cap),
      tokens: costs[i]! - separatorTokens,
      sourceIds: item.sourceIds,
    }));
  if (!kept.length) return { blocks: [], cut, used: 0 };
  const sourceIds = kept.flatMap((i) => items[i]!.sourceIds);
  return { blocks: [{ role, layer, text, tokens, sourceIds }], cut, used: tokens };
}

/**
 * One document as one block, whole when it fits, else its head and tail around a marker;
 * the tokens dropped are reported as cut.
 */
export function fillDocument(options: {
  layer: LayerName;
  role: BlockRole;
  text: string;
  sourceIds: readonly string[];
  counter: TokenCounter;
  cap: number;
}): LayerResult {
  const { layer, role, text, sourceIds, counter, cap } = options;
  if (!text) return { blocks: [], cut: [], used: 0 };
  const fitted = fitText(text, cap, counter);
  if (!fitted)
    return {
      blocks: [],
      cut: [{ layer, reason: shareFull(layer, cap), tokens: counter.count(text), sourceIds }],
      used: 0,
    };
  const block: ContextBlock = { role, layer, text: fitted.text, tokens: fitted.tokens, sourceIds };
  const cut: ContextCut[] = fitted.truncated
    ? [
        {
          layer,
          reason: `truncated to fit the ${layer} share of ${cap} tokens`,
          tokens: counter.count(text) - fitted.tokens,
          sourceIds,
        },
      ]
    : [];
  return { blocks: [block], cut, used: fitted.tokens };
}
