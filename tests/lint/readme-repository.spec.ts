import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** The README's repository map names every lib, so a new one is described where people look first. */
describe('the README repository map', () => {
  const root = resolve(__dirname, '../..');
  const readme = readFileSync(resolve(root, 'README.md'), 'utf8');
  const map = readme.slice(readme.indexOf('## Repository'));

  it.each(readdirSync(resolve(root, 'libs')))('describes libs/%s', (lib) => {
    expect(map).toMatch(new RegExp(`^libs/${lib}\\s+\\S`, 'm'));
  });
});
