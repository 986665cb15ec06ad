import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Variables } from '@engram/config';
import { CONFIGURATION_PAGE, withConfigTable } from './config.command';

describe(`the configuration table in ${CONFIGURATION_PAGE}`, () => {
  const page = readFileSync(resolve(__dirname, '../../../..', CONFIGURATION_PAGE), 'utf8');

  it('is the table the code generates (run `npm run docs:config` after adding a variable)', () => {
    expect(withConfigTable(page)).toBe(page);
  });

  it('names every variable the code reads', () => {
    for (const name of Object.keys(Variables)) expect(page).toContain(`| \`${name}\` |`);
  });
});
