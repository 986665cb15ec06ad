import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import {
  Consumers,
  DeadLetterSchema,
  encodeMessage,
  Rpcs,
  Subjects,
  timestampFromDate,
  type ListDeadLettersResponse,
  type RedriveDeadLetterResponse,
} from '@engram/contracts';
import { RpcError } from '@engram/messaging';
import { startServiceUnderTest, waitFor, type ServiceUnderTest } from '@engram/testing';
import { loadRetrievalConfig } from '../retrieval.config';
import { RetrievalModule } from '../retrieval.module';

/**
 * Dead letters as a tenant sees them (real ingest, NATS and Postgres): a turn ingest refused
 * is listed to its tenant with the reason and the original, to no other; a re-drive publishes
 * the original again, its worker handles it, and the letter is gone.
 */
describe('dead letters: list and re-drive (real ingest, NATS and Postgres)', () => {
  let retrieval: ServiceUnderTest;
  const turns = Consumers.ingestTurns;

  beforeAll(async () => {
    retrieval = await startServiceUnderTest({
      label: 'dead-letters',
      loadConfig: loadRetrievalConfig,
      module: (config) => RetrievalModule.register(config),
      seed: async (admin) => {
        await admin.query(`INSERT INTO tenants (tenant_id) VALUES ('acme'), ('globex')`);
      },
      processes: ['ingest'],
    });
  });

  afterAll(async () => {
    await retrieval?.stop();
  });

  const list = (tenantId: string, limit = 0) =>
    retrieval.rpc.call(Rpcs.deadLettersList, { limit }, { tenantId }) as Promise<ListDeadLettersResponse>;
  const redrive = (tenantId: string, sequence: bigint) =>
    retrieval.rpc.call(
      Rpcs.deadLettersRedrive,
      { sequence },
      { tenantId },
    ) as Promise<RedriveDeadLetterResponse>;

  it('lists nothing while no worker gave up on anything', async () => {
    expect((await list('acme')).letters).toEqual([]);
  });

  it('lists a turn ingest refused to its tenant only, with the reason and the original', async () => {
    await retrieval.js.publish(
      Subjects.turn('acme', 'helper'),
      '{"turnId": "t-bad", "messages": "not a list"',
      {
        msgID: 'bad-acme',
      },
    );
    await retrieval.js.publish(Subjects.turn('globex', 'helper'), 'not json at all', { msgID: 'bad-globex' });
    await waitFor(
      'both dead-lettered',
      async () => (await list('acme')).letters.length === 1 && (await list('globex')).letters.length === 1,
      20_000,
    );

    const [letter] = (await list('acme')).letters;
    expect(letter).toMatchObject({
      stream: turns.stream.name,
      consumer: turns.durable,
      originalSubject: Subjects.turn('acme', 'helper'),
      cause: 'invalid',
      payload: '{"turnId": "t-bad", "messages": "not a list"',
    });
    expect(letter!.reason).not.toBe('');
    expect(letter!.sequence).toBeGreaterThan(0n);
    const [theirs] = (await list('globex')).letters;
    expect(theirs!.payload).toBe('not json at all');
    // Another tenant's letter cannot be re-driven by its sequence either.
    await expect(redrive('acme', theirs!.sequence)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(redrive('acme', 999_999n)).rejects.toBeInstanceOf(RpcError);
  });

  it('re-drives a letter: its worker handles the original, and the letter is gone', async () => {
    // A valid turn that ingest gave up on (its store was down through every retry).
    const turn = {
      turnId: 'turn-redriven',
      sessionKey: 'chat',
      messages: [{ role: 'user', content: 'The okapi code is 4711.' }],
    };
    await retrieval.js.publish(
      Subjects.deadLetter(turns.stream.name, turns.durable),
      encodeMessage(DeadLetterSchema, {
        stream: turns.stream.name,
        consumer: turns.durable,
        originalSubject: Subjects.turn('acme', 'helper'),
        originalSequence: 4242n,
        originalData: new TextEncoder().encode(JSON.stringify(turn)),
        originalHeaders: { 'Nats-Msg-Id': 'turn-redriven' },
        deliveries: 5,
        cause: 'exhausted',
        reason: 'the store did not answer',
        deadAt: timestampFromDate(new Date()),
      }),
    );
    const letter = (await list('acme')).letters.find((l) => l.reason === 'the store did not answer')!;
    expect(letter.payload).toContain('okapi');
    const stored = () => retrieval.count(`SELECT count(*) AS n FROM messages WHERE content LIKE '%okapi%'`);
    expect(await stored()).toBe(0);

    const answer = await redrive('acme', letter.sequence);
    expect(answer.subject).toBe(Subjects.turn('acme', 'helper'));
    await waitFor('the re-driven turn stored', async () => (await stored()) === 1, 20_000);
    expect((await list('acme')).letters.map((l) => l.sequence)).not.toContain(letter.sequence);
    await expect(redrive('acme', letter.sequence)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('lists and refuses through the CLI as the RPC does', async () => {
    const cli = resolve(__dirname, '../../../../tools/cli/dist/main.js');
    const engram = (...args: string[]) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((done) =>
        execFile(
          process.execPath,
          [cli, ...args],
          { env: { ...process.env, NATS_URL: retrieval.env.NATS_URL } },
          (error, stdout, stderr) =>
            done({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
        ),
      );
    const listed = await engram('deadletters', 'list', '--tenant', 'globex', '--json');
    expect(listed.code).toBe(0);
    const letters = (JSON.parse(listed.stdout) as { letters: Array<{ payload: string }> }).letters;
    expect(letters.map((l) => l.payload)).toEqual(['not json at all']);
    const table = await engram('deadletters', 'list', '--tenant', 'globex');
    expect(table.stdout).toContain(Subjects.turn('globex', 'helper'));
    const bad = await engram('deadletters', 'redrive', '--tenant', 'acme', 'seven');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('<sequence> must be a positive whole number');
  });

  it('refuses a list longer than allowed, or a re-drive without a sequence', async () => {
    await expect(list('acme', 501)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(redrive('acme', 0n)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
