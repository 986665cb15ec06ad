import { renderTurnFlow, turnFlowEdges } from './turn-flow';

describe('the flow of one turn', () => {
  const edges = turnFlowEdges();
  const edge = (from: string, to: string, what: string) =>
    edges.find((e) => e.from === from && e.to === to && e.what === what);

  it('starts at the agent runtime and enters through ingest', () => {
    expect(edges.filter((e) => e.from === 'runtime')).toEqual([
      { from: 'runtime', to: 'ingest', what: 'turn', durables: ['ingest-turns'] },
    ]);
  });

  it('carries a stored message to every consumer that reads it', () => {
    expect(edge('ingest', 'compactor', 'message.stored')?.durables).toEqual([
      'compactor-summaries',
      'compactor-facts',
      'compactor-sessions',
    ]);
    expect(edge('ingest', 'embedder', 'message.stored')?.durables).toEqual(['embedder-messages']);
  });

  it('follows what the compactor announces back to the embedder, and marks what nobody reads', () => {
    expect(edge('compactor', 'embedder', 'summary.created')?.durables).toEqual(['embedder-summaries']);
    expect(edge('compactor', 'unread', 'compaction.created')).toBeDefined();
  });

  it('leaves out what a turn does not cause (access statistics come from searches)', () => {
    expect(edges.some((e) => e.to === 'retrieval' || e.from === 'retrieval')).toBe(false);
  });

  it('renders as a Mermaid flowchart, one line per edge', () => {
    const chart = renderTurnFlow();
    expect(chart.startsWith('```mermaid\nflowchart LR\n')).toBe(true);
    expect(chart).toContain('ingest -->|"message.stored<br/>embedder-messages"| embedder');
    expect(chart.split('\n').filter((l) => l.includes('-->') || l.includes('-.->'))).toHaveLength(
      edges.length,
    );
  });
});
