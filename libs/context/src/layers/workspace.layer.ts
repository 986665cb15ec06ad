import type { WorkspaceDocumentInput, WorkspaceKind } from '../assembly/context-inputs';
import { fillDocument, shareFull, type LayerFill, type LayerResult } from '../assembly/layer-fill';
import type { TokenCounter } from '../tokens/token-counter';
import { isoDay } from './day';

const ORDER: readonly WorkspaceKind[] = ['soul', 'identity', 'user', 'agents', 'tools', 'memory', 'daily'];
/** Below this, a truncated document says too little to be worth its marker. */
const MIN_TRUNCATED_TOKENS = 64;

/** The documents a prompt of today shows, in their order: the fixed files, then today's notes. */
export function workspaceDocumentsFor(
  documents: readonly WorkspaceDocumentInput[],
  asOf: Date,
  excluded: readonly WorkspaceKind[] = [],
) {
  const today = isoDay(asOf);
  return documents
    .filter((d) => !excluded.includes(d.kind) && (d.kind !== 'daily' || d.day === today) && d.content.trim())
    .sort((a, b) => ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind) || a.name.localeCompare(b.name));
}

/** Workspace documents, whole in their order while they fit; the first that does not is truncated, the rest cut. */
export function workspaceLayer(
  documents: readonly WorkspaceDocumentInput[],
  counter: TokenCounter,
): LayerFill {
  return (cap) => {
    const blocks: LayerResult['blocks'][number][] = [];
    const cut: LayerResult['cut'][number][] = [];
    let used = 0;
    for (const doc of documents) {
      const text = `## ${doc.name}\n${doc.content.trim()}`;
      const sourceIds = [`workspace:${doc.name}`];
      const left = cap - used;
      const whole = counter.count(text);
      if (whole <= left || left >= MIN_TRUNCATED_TOKENS) {
        const filled = fillDocument({
          layer: 'workspace',
          role: 'system',
          text,
          sourceIds,
          counter,
          cap: left,
        });
        blocks.push(...filled.blocks);
        cut.push(...filled.cut);
        used += filled.used;
      } else cut.push({ layer: 'workspace', reason: shareFull('workspace', cap), tokens: whole, sourceIds });
    }
    return { blocks, cut, used };
  };
}
