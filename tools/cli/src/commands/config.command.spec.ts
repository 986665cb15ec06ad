import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Variables } from '@engram/config';
import { withConfigTable } from './config.command';

describe('the README configuration table', () => {
  const readme = readFileSync(resolve(__dirname, '../../../../README.md'), 'utf8');

  it('is the table the code generates (run `npm run docs:config` after adding a variable)', () => {
    expect(withConfigTable(readme)).toBe(readme);
  });

  it('names every variable the code reads', () => {
    for (const name of Object.keys(Variables)) expect(readme).toContain(`| \`${name}\` |`);
  });
});
