import { nodeOptionsFor, SERVICE_NODE_OPTIONS } from './variables';

describe('nodeOptionsFor', () => {
  it("adds the service's own V8 flags after the caller's NODE_OPTIONS", () => {
    expect(nodeOptionsFor('retrieval', '--require ./trace.js')).toBe(
      `--require ./trace.js ${SERVICE_NODE_OPTIONS.retrieval}`,
    );
    expect(nodeOptionsFor('retrieval', '')).toBe(SERVICE_NODE_OPTIONS.retrieval);
  });

  it('leaves a service without flags of its own as the caller had it', () => {
    expect(nodeOptionsFor('ingest', '--require ./trace.js')).toBe('--require ./trace.js');
    expect(nodeOptionsFor('ingest', '')).toBe('');
  });
});
