/** One finished span, as a trace backend keeps it. */
export interface CollectedSpan {
  readonly traceId: string;
  readonly spanId: string;
  /** Absent (or empty) on a trace's root. */
  readonly parentSpanId?: string;
  readonly name: string;
  /** The resource's service.name. */
  readonly service: string;
  /** Nanoseconds since the epoch, as a string (OTLP/JSON): orders siblings. */
  readonly startTimeUnixNano: string;
}

/** A span and the spans whose parent it is, earliest first. */
export interface SpanNode {
  readonly span: CollectedSpan;
  readonly children: SpanNode[];
}

/**
 * The spans of one trace as trees: its root's, then one per span whose parent is not
 * among them (a hop that lost its parent shows up as a second root).
 */
export function spanTrees(spans: readonly CollectedSpan[], traceId: string): SpanNode[] {
  const own = spans.filter((s) => s.traceId === traceId);
  const nodes = new Map(own.map((span) => [span.spanId, { span, children: [] as SpanNode[] }]));
  const roots: SpanNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.span.parentSpanId ? nodes.get(node.span.parentSpanId) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  const byStart = (a: SpanNode, b: SpanNode) =>
    BigInt(a.span.startTimeUnixNano) < BigInt(b.span.startTimeUnixNano) ? -1 : 1;
  for (const node of nodes.values()) node.children.sort(byStart);
  return roots.sort(byStart);
}

/** Trees as indented lines, `service: span name`, each child two spaces deeper than its parent. */
export function renderSpanTrees(trees: readonly SpanNode[]): string {
  const lines: string[] = [];
  const walk = (node: SpanNode, depth: number) => {
    lines.push(`${'  '.repeat(depth)}${node.span.service}: ${node.span.name}`);
    node.children.forEach((child) => walk(child, depth + 1));
  };
  trees.forEach((tree) => walk(tree, 0));
  return lines.join('\n');
}
