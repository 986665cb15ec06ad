import { runChaos, type ChaosReport } from '@engram/testing';

const LOAD_SECONDS = 20;
const MESSAGES_PER_SECOND = 100;

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
      loadSeconds: LOAD_SECONDS,
      messagesPerSecond: MESSAGES_PER_SECOND,
      killsPerWorker: 1,
      gertyStallMs: 5000,
      searchers: 2,
      // Ten faults in twenty seconds leave the calls hardly a moment without one, so the share of
      // failed calls measures this schedule, not Engram; the default run (npm run test:chaos)
      // holds the 5 % target. Here every failure must still be blamed on a fault.
      maxFailedCallShare: null,
      settleTimeoutMs: 300_000,
      ackFloorEveryMs: 5000,
      progress: (line) => process.stderr.write(`chaos  ${line}\n`),
    });
    process.stderr.write(`chaos  ${JSON.stringify(report)}\n`);
  }, 900_000);

  it('inflicted every fault while the load ran', () => {
    expect(report.faults.filter((f) => f.includes(' kill '))).toHaveLength(7);
    expect(report.faults.filter((f) => f.endsWith('restart-nats'))).toHaveLength(1);
    expect(report.faults.filter((f) => f.endsWith('restart-postgres'))).toHaveLength(1);
    expect(report.faults.filter((f) => f.endsWith('stall-gerty'))).toHaveLength(1);
    // The load ran its whole length at its rate. Turns fall due on the publisher's 20 ms tick, so a
    // run whose faults end on time publishes a few short of rate × seconds (1,998 of 2,000 seen);
    // 5 % leaves room for a slow tick on a loaded machine.
    expect(report.published).toBeGreaterThanOrEqual(0.95 * LOAD_SECONDS * MESSAGES_PER_SECOND);
    expect(report.searches.answered).toBeGreaterThan(0);
    expect(report.contextBuilds.answered).toBeGreaterThan(0);
  });

  it("samples every durable consumer's ack floor through the run, for the report", () => {
    expect(report.ackFloors.length).toBeGreaterThan(5);
    expect(Object.keys(report.ackFloors.at(-1)!.consumers)).toEqual(
      expect.arrayContaining(['ingest-turns', 'compactor-summaries', 'compactor-facts', 'embedder-messages']),
    );
  });

  it('keeps every consumer moving: none goes a minute without acknowledging while it has work', () => {
    expect(report.starved).toEqual([]);
  });

  it('blames every failed search and context build on the fault that caused it', () => {
    expect(report.failedCalls.filter((f) => f.fault === null)).toEqual([]);
  });

  it('stores every published message exactly once', () => {
    expect({ lost: report.lost, duplicated: report.duplicated }).toEqual({ lost: 0, duplicated: 0 });
    expect(report.stored).toBe(report.published);
  });

  it('leaves every derived artefact consistent, no consumer stuck, and no dead letter without a reason', () => {
    expect(report.problems).toEqual([]);
  });
});
