import { chaosTurn } from './chaos-turns';

describe('chaosTurn', () => {
  const tenants = ['a', 'b', 'c'];
  const agents = ['x', 'y'];

  it('is the same turn every time for the same n', () => {
    expect(chaosTurn(41, tenants, agents)).toEqual(chaosTurn(41, tenants, agents));
  });

  it('spreads turns over every tenant, agent and four sessions, one to four messages each', () => {
    const turns = Array.from({ length: 240 }, (_, n) => chaosTurn(n, tenants, agents));
    expect(new Set(turns.map((t) => t.tenant))).toEqual(new Set(tenants));
    expect(new Set(turns.map((t) => `${t.tenant}/${t.agent}/${t.sessionKey}`)).size).toBe(3 * 2 * 4);
    expect(new Set(turns.map((t) => t.messages.length))).toEqual(new Set([1, 2, 3, 4]));
    const contents = turns.flatMap((t) => t.messages.map((m) => m.content));
    expect(new Set(contents).size).toBe(contents.length);
    expect(turns.every((t) => t.messages[0]!.role === 'user')).toBe(true);
  });
});
