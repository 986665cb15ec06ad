/** A conversation's summary tree as the page nests it: pure, so the unit spec beside it pins it down. */

import type { SummaryNodeJson } from '@engram/contracts';
import type { Emitted } from './wire';

/** One summary as mem.rpc.summaries.list answers it. */
export type SummaryNode = Emitted<SummaryNodeJson, 'earliestAt' | 'latestAt'>;

/** A summary with its child summaries nested, in their order. */
export interface SummaryBranch {
  node: SummaryNode;
  children: SummaryBranch[];
}

/** What a summary's depth makes it: 0 leaf, 1 branch, 2 root. */
export function summaryLevel(depth: number): 'leaf' | 'branch' | 'root' {
  return depth <= 0 ? 'leaf' : depth === 1 ? 'branch' : 'root';
}

/**
 * The summaries nested under their parents. The top of the forest is every summary no other
 * summary names as a child (the roots, and branches or leaves not yet under one), in the
 * answer's order (roots first); a child is placed under each parent that names it.
 */
export function summaryForest(nodes: readonly SummaryNode[]): SummaryBranch[] {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const named = new Set(nodes.flatMap((node) => node.children));
  const nest = (node: SummaryNode): SummaryBranch => ({
    node,
    children: node.children
      .map((id) => byId.get(id))
      // A child is one level down: a missing row, or one not below its parent, ends the branch.
      .filter((child): child is SummaryNode => child !== undefined && child.depth < node.depth)
      .map(nest),
  });
  return nodes.filter((node) => !named.has(node.id)).map(nest);
}
