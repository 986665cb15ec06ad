import { idleFigures } from './idle-report';

describe('idleFigures', () => {
  it('gives each group and their sum as % of one core, and Postgres counters per minute', () => {
    const at = (n: number) => ({
      transactions: n,
      rowsScanned: 10 * n,
      rowsFetched: n,
      blocks: n,
      sessions: 0,
    });
    const figures = idleFigures(
      { seconds: { retrieval: 0.6, postgres: 1.2 }, processes: { retrieval: 1, postgres: 4 }, machine: 30 },
      120,
      at(100),
      at(160),
    );
    expect(figures.cpuPctOfCore).toEqual({ retrieval: 0.5, postgres: 1 });
    expect(figures.idleCpuPct).toBe(1.5);
    expect(figures.machineCpuPct).toBe(25);
    expect(figures.database).toEqual({
      transactions: 30,
      rowsScanned: 300,
      rowsFetched: 30,
      blocks: 30,
      sessions: 0,
    });
  });
});
