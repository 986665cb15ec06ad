import type { JetStreamClient } from '@nats-io/jetstream';
import { Client } from 'pg';
import { Rpcs, timestampDate } from '@engram/contracts';
import { RpcClient, RpcError } from '@engram/messaging';
import { factEvents, startServiceUnderTest, type ServiceUnderTest } from '@engram/testing';
import { loadRetrievalConfig } from '../retrieval.config';
import { RetrievalModule } from '../retrieval.module';

describe('memory_forget (real Postgres and NATS)', () => {
  let retrieval: ServiceUnderTest;
  let rpc: RpcClient;
  let admin: Client;
  let js: JetStreamClient;

  type Request = Parameters<RpcClient['call']>[1];
  const save = (request: Request, tenantId = 'acme') => rpc.call(Rpcs.save, request, { tenantId });
  const forget = (request: Request, tenantId = 'acme') => rpc.call(Rpcs.forget, request, { tenantId });
  const forgetFailure = (request: Request, tenantId = 'acme') =>
    forget(request, tenantId).then(
      () => {
        throw new Error('expected the forget to fail');
      },
      (error: unknown) => error as RpcError,
    );
  const factRow = async (id: string) =>
    (
      await admin.query<{ content: string; valid_to: Date | null; forget_reason: string | null }>(
        `SELECT * FROM facts WHERE id = $1`,
        [id],
      )
    ).rows[0];

  const factsAnnounced = (tenantId: string) => factEvents(js, tenantId);

  beforeAll(async () => {
    retrieval = await startServiceUnderTest({
      label: 'forget',
      loadConfig: loadRetrievalConfig,
      module: (config) => RetrievalModule.register(config),
    });
    ({ admin, rpc, js } = retrieval);
  });

  afterAll(async () => {
    await retrieval?.stop();
  });

  it('closes the fact’s validity, keeps the row and the reason, and announces it', async () => {
    const { factId } = await save({
      agent: 'helper',
      content: 'The user is vegetarian.',
      category: 'preference',
    });
    const before = Date.now();
    const forgotten = await forget({ factId, reason: 'the user asked to forget it' });
    expect(forgotten.factId).toBe(factId);
    const validTo = timestampDate(forgotten.validTo!);
    expect(validTo.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(validTo.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    const row = await factRow(factId);
    expect(row).toMatchObject({
      content: 'The user is vegetarian.',
      forget_reason: 'the user asked to forget it',
    });
    expect(row!.valid_to!.getTime()).toBe(validTo.getTime());
    const events = (await factsAnnounced('acme')).filter((e) => e.event.factId === factId);
    expect(events.map((e) => [e.event.operation, e.msgId])).toEqual([
      ['created', `fact:acme:${factId}:created`],
      ['forgotten', `fact:acme:${factId}:forgotten`],
    ]);
    expect(events[1]!.event).toMatchObject({ agent: 'helper', category: 'preference' });
  });

  it('is idempotent: forgetting again answers the same valid_to and changes nothing', async () => {
    const { factId } = await save({ agent: 'helper', content: 'The user drives a blue car.' });
    const first = await forget({ factId, reason: 'wrong' });
    const second = await forget({ factId, reason: 'something else' });
    expect(second).toEqual(first);
    expect(await factRow(factId)).toMatchObject({ forget_reason: 'wrong' });
    expect(
      (await factsAnnounced('acme')).filter(
        (e) => e.event.factId === factId && e.event.operation === 'forgotten',
      ),
    ).toHaveLength(1);
  });

  it('no longer counts a forgotten fact as a duplicate: saying it again stores a new fact', async () => {
    const first = await save({ agent: 'helper', content: 'The user works at Initech.' });
    await forget({ factId: first.factId });
    const again = await save({ agent: 'helper', content: 'The user works at Initech.' });
    expect(again.deduplicated).toBe(false);
    expect(again.factId).not.toBe(first.factId);
    expect(await factRow(first.factId)).toMatchObject({ valid_to: expect.any(Date), forget_reason: null });
    expect(await factRow(again.factId)).toMatchObject({ valid_to: null });
    // …and a retry of that save finds the new fact, not the forgotten one.
    expect(await save({ agent: 'helper', content: 'The user works at Initech.' })).toMatchObject({
      factId: again.factId,
      deduplicated: true,
    });
  });

  it('keeps tenants apart: another tenant can neither forget nor see the fact', async () => {
    const { factId } = await save({ agent: 'helper', content: 'The launch code is 0000.' });
    expect(await forgetFailure({ factId }, 'globex')).toMatchObject({
      code: 'NOT_FOUND',
      message: `fact ${factId} not found`,
      details: { factId },
    });
    expect(await factRow(factId)).toMatchObject({ valid_to: null });
    const theirs = await save({ agent: 'helper', content: 'The launch code is 0000.' }, 'globex');
    expect(theirs).toMatchObject({ deduplicated: false });
    expect(theirs.factId).not.toBe(factId);
  });

  it('refuses a bad field with a violation naming it, and leaves the fact as it was', async () => {
    const { factId } = await save({ agent: 'helper', content: 'The printer is on floor 3.' });
    const failure = await forgetFailure({ factId, reason: 'x'.repeat(1001) });
    expect(failure).toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: {
        fieldViolations: [{ field: 'reason', description: 'reason is longer than 1000 characters' }],
      },
    });
    expect(await factRow(factId)).toMatchObject({ valid_to: null, forget_reason: null });
  });

  it.each([
    [{}, 'INVALID_ARGUMENT', /factId is required/],
    [{ factId: 'fact:12' }, 'INVALID_ARGUMENT', /"fact:12" is not a fact id/],
    [{ factId: '-3' }, 'INVALID_ARGUMENT', /not a fact id/],
    [{ factId: '99999999999999999999' }, 'INVALID_ARGUMENT', /not a fact id/],
    [{ factId: '987654' }, 'NOT_FOUND', /fact 987654 not found/],
    [{ factId: '1', reason: 'x'.repeat(1001) }, 'INVALID_ARGUMENT', /reason is longer than 1000 characters/],
  ])('answers %j with %s', async (request, code, message) => {
    const failure = await forgetFailure(request);
    expect(failure).toBeInstanceOf(RpcError);
    expect(failure.code).toBe(code);
    expect(failure.message).toMatch(message);
  });
});
