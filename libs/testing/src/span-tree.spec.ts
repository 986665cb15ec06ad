import { renderSpanTrees, spanTrees, type CollectedSpan } from './span-tree';

const span = (
  spanId: string,
  parentSpanId: string | undefined,
  name: string,
  start: number,
  traceId = 't1',
) =>
  ({
    traceId,
    spanId,
    parentSpanId,
    name,
    service: 'svc',
    startTimeUnixNano: String(start),
  }) as CollectedSpan;

describe('spanTrees / renderSpanTrees', () => {
  it('nests children under their parent, earliest first, and leaves out other traces', () => {
    const spans = [
      span('c', 'a', 'second', 30),
      span('a', undefined, 'root', 10),
      span('b', 'a', 'first', 20),
      span('d', 'b', 'grandchild', 25),
      span('x', undefined, 'other trace', 5, 't2'),
    ];
    expect(renderSpanTrees(spanTrees(spans, 't1'))).toBe(
      ['svc: root', '  svc: first', '    svc: grandchild', '  svc: second'].join('\n'),
    );
  });

  it('shows a span whose parent is missing as a root of its own', () => {
    const trees = spanTrees([span('a', undefined, 'root', 1), span('b', 'lost', 'orphan', 2)], 't1');
    expect(trees.map((t) => t.span.name)).toEqual(['root', 'orphan']);
  });
});
