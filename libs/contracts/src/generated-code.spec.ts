import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** libs/contracts/src/gen is generated from proto/: it must be what `npm run generate:contracts` writes. */
describe('generated contracts', () => {
  it('match proto/', () => {
    const root = resolve(__dirname, '../../..');
    const out = mkdtempSync(join(tmpdir(), 'engram-contracts-'));
    try {
      const template = JSON.stringify({
        version: 'v2',
        plugins: [
          { local: 'protoc-gen-es', out, opt: ['target=ts', 'import_extension=none', 'json_types=true'] },
        ],
      });
      execFileSync(resolve(root, 'node_modules/.bin/buf'), ['generate', '--template', template], {
        cwd: resolve(root, 'proto'),
        env: { ...process.env, PATH: `${resolve(root, 'node_modules/.bin')}:${process.env['PATH']}` },
      });
      const committed = resolve(__dirname, 'gen/memory/v1');
      const files = readdirSync(join(out, 'memory/v1')).sort();
      expect(readdirSync(committed).sort()).toEqual(files);
      for (const file of files) {
        expect(readFileSync(join(committed, file), 'utf8')).toBe(
          readFileSync(join(out, 'memory/v1', file), 'utf8'),
        );
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
