import { Subjects, subjectMatches, tenantOfStreamSubject } from './subjects';

describe('tenantOfStreamSubject', () => {
  it('reads the tenant of a turn, an event and a work item', () => {
    expect(tenantOfStreamSubject(Subjects.turn('acme', 'helper'))).toBe('acme');
    expect(tenantOfStreamSubject(Subjects.messageStored('acme'))).toBe('acme');
    expect(tenantOfStreamSubject(Subjects.factUpserted('globex'))).toBe('globex');
    expect(tenantOfStreamSubject(Subjects.accessRecorded('t-1'))).toBe('t-1');
    expect(tenantOfStreamSubject(Subjects.toolSynthesis('acme', '42'))).toBe('acme');
  });

  it('finds none in a subject that names no tenant, or names it badly', () => {
    expect(tenantOfStreamSubject(Subjects.deadLetter('TURNS', 'ingest-turns'))).toBeNull();
    expect(tenantOfStreamSubject('mem.message.stored')).toBeNull();
    expect(tenantOfStreamSubject('mem.message.stored.acme.extra')).toBeNull();
    expect(tenantOfStreamSubject('other.turn.acme.helper')).toBeNull();
    expect(tenantOfStreamSubject('mem.work.toolsynth.acme')).toBeNull();
  });
});

describe('subjectMatches', () => {
  it.each([
    ['mem.message.stored.>', 'mem.message.stored.{tenant}', true],
    ['mem.message.stored.>', 'mem.message.stored', false],
    ['mem.turn.*.*', 'mem.turn.acme.bot', true],
    ['mem.turn.*', 'mem.turn.acme.bot', false],
    ['mem.fact.upserted.>', 'mem.message.stored.acme', false],
    ['mem.*.stored.acme', 'mem.message.stored.acme', true],
    ['mem.*.stored.acme', 'mem.message.stored.acme.x', false],
    ['mem.fact.upserted.acme', 'mem.fact.upserted', false],
  ])('%s matches %s: %s', (filter, subject, matches) => {
    expect(subjectMatches(filter, subject)).toBe(matches);
  });
});
