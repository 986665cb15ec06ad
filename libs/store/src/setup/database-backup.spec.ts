import { databaseOf, libpqTarget } from './database-backup';

describe('libpqTarget', () => {
  it('points the URL at the database and keeps the password off the command line', () => {
    expect(
      libpqTarget('postgres://admin:s%40cret@db.example:5433/postgres?sslmode=require', 'engram'),
    ).toEqual({
      uri: 'postgres://admin@db.example:5433/engram?sslmode=require',
      env: { PGPASSWORD: 's@cret' },
    });
  });

  it('sets no password when the URL has none (trust, peer or ~/.pgpass)', () => {
    expect(libpqTarget('postgres://postgres@127.0.0.1:5432/postgres', 'engram restored')).toEqual({
      uri: 'postgres://postgres@127.0.0.1:5432/engram%20restored',
      env: {},
    });
  });

  it('reads the database a URL names', () => {
    expect(databaseOf('postgres://engram_owner@127.0.0.1:5432/engram%20restored')).toBe('engram restored');
  });
});
