import { Subjects, tenantOfStreamSubject } from './subjects';

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
