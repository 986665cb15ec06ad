import { CpuAccumulator } from './cpu-accumulator';

describe('CpuAccumulator', () => {
  it('counts what each process used in the window, including processes that came and went', () => {
    const cpu = new Map<number, number>([
      [1, 10],
      [2, 5],
    ]);
    let pids = [1, 2];
    let machine = 100;
    const acc = new CpuAccumulator(
      [{ name: 'pg', pids: () => pids }],
      (pid) => cpu.get(pid) ?? 0,
      () => machine,
    );
    acc.start();
    cpu.set(1, 11).set(3, 0.25); // 3 is a backend opened in the window
    pids = [1, 2, 3];
    machine = 101;
    acc.sample();
    cpu.delete(3); // …and closed again: it keeps its 0.25 s
    cpu.set(2, 5.5);
    pids = [1, 2];
    machine = 103;
    acc.sample();
    expect(acc.totals()).toEqual({ seconds: { pg: 1.75 }, processes: { pg: 3 }, machine: 3 });
  });
});
