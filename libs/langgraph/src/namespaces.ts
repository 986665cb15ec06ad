import type { ListNamespacesOperation, MatchCondition } from '@langchain/langgraph';
import { namespacePath } from './item-fact';

/**
 * Refuses a namespace LangGraph would refuse (labels non-empty strings without "." or ":"):
 * also for batch(), which LangGraph does not check, since ":" joins labels in the metadata.
 */
export function checkNamespace(namespace: readonly string[], { allowEmpty = false } = {}): void {
  if (namespace.length === 0 && !allowEmpty) throw new Error('Namespace cannot be empty.');
  for (const label of namespace) {
    if (typeof label !== 'string' || label === '' || /[.:\0]/.test(label)) {
      throw new Error(
        `Invalid namespace label ${JSON.stringify(label)} in ${JSON.stringify(namespace)}: labels are non-empty strings without ".", ":" or NUL.`,
      );
    }
  }
}

/** Whether a namespace meets a prefix or suffix condition ("*" matches any one label). */
export function meets(namespace: readonly string[], { matchType, path }: MatchCondition): boolean {
  if (path.length > namespace.length) return false;
  const start = matchType === 'prefix' ? 0 : namespace.length - path.length;
  return path.every((label, i) => label === '*' || label === namespace[start + i]);
}

/** The leading part of the namespaces a prefix condition without wildcards names, for Engram to narrow by. */
export function fixedPrefix(op: ListNamespacesOperation): string[] {
  const prefix = op.matchConditions?.find((c) => c.matchType === 'prefix')?.path ?? [];
  const fixed = prefix.findIndex((label) => label === '*');
  return prefix.slice(0, fixed === -1 ? prefix.length : fixed);
}

/**
 * The answer of a ListNamespacesOperation over the namespaces that hold items, as InMemoryStore
 * gives it: those meeting every condition, cut at maxDepth, distinct, sorted, then paged.
 */
export function listedNamespaces(namespaces: readonly string[][], op: ListNamespacesOperation): string[][] {
  const met = namespaces.filter((ns) => (op.matchConditions ?? []).every((c) => meets(ns, c)));
  const cut = op.maxDepth === undefined ? met : met.map((ns) => ns.slice(0, op.maxDepth));
  const distinct = new Map(cut.map((ns) => [namespacePath(ns), ns]));
  const sorted = [...distinct.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, ns]) => ns);
  const offset = op.offset ?? 0;
  return sorted.slice(offset, offset + (op.limit ?? sorted.length));
}
