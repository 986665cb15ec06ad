import { runChaos, type ChaosReport } from '@engram/testing';

/**
 * The short form of `npm run test:chaos`: every worker SIGKILLed once and restarted,
 * nats-server and Postgres restarted, Gerty stalled for 5 s, all under ingest, search and
 * context-build load. Nothing published is lost or stored twice, and every derived artefact is
 * consistent once the pipeline has caught up.
 */
describe('chaos, short form (every worker killed once, NATS and Postgres restarted, Gerty stalled)', () => {
  let report: ChaosReport;

  beforeAll(async () => {
    report = await runChaos({
      loadSeconds: 20,
      messagesPerSecond: 100,
      killsPerWorker: 1,
      gertyStallMs: 5000,
      searchers: 2,
      settleTimeoutMs: 300_000,
      progress: (line) => process.stderr.write(`chaos  ${line}\n`),
    });
    process.stderr.write(`chaos  ${JSON.stringify(report)}\n`);
  }, 900_000);

  it('inflicted every fault while the load ran', () => {
    expect(report.faults.filter((f) => f.includes(' kill '))).toHaveLength(7);
    expect(report.faults.filter((f) => f.endsWith('restart-nats'))).toHaveLength(1);
    expect(report.faults.filter((f) => f.endsWith('restart-postgres'))).toHaveLength(1);
    expect(report.faults.filter((f) => f.endsWith('stall-gerty'))).toHaveLength(1);
    expect(report.published).toBeGreaterThan(2000);
    expect(report.searches.answered).toBeGreaterThan(0);
    expect(report.contextBuilds.answered).toBeGreaterThan(0);
  });

  it('stores every published message exactly once', () => {
    expect({ lost: report.lost, duplicated: report.duplicated }).toEqual({ lost: 0, duplicated: 0 });
    expect(report.stored).toBe(report.published);
  });

  it('leaves every derived artefact consistent, no consumer stuck, and no dead letter without a reason', () => {
    expect(report.problems).toEqual([]);
  });
});
