import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';

const ROOT = resolve(__dirname, '../..');

interface Instruction {
  readonly keyword: string;
  readonly args: string;
}

/** The Dockerfile's instructions per build stage (continuation lines joined, comments left out). */
function stagesOf(dockerfile: string): Instruction[][] {
  const lines = dockerfile
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  const stages: Instruction[][] = [];
  for (const line of lines) {
    const [keyword = '', ...rest] = line.split(/\s+/);
    const instruction = { keyword: keyword.toUpperCase(), args: rest.join(' ') };
    if (instruction.keyword === 'FROM') stages.push([]);
    stages.at(-1)?.push(instruction);
  }
  return stages;
}

interface ComposeService {
  readonly image?: string;
  readonly build?: { context?: string; dockerfile?: string; args?: Record<string, string> };
}

/** Docker has no engine here: these are the promises the images' build makes, checked from the files. */
describe('one Dockerfile for every service', () => {
  const services = readdirSync(join(ROOT, 'services')).filter((name) =>
    existsSync(join(ROOT, 'services', name, 'project.json')),
  );
  const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8')) as {
    services: Record<string, ComposeService>;
  };
  const stages = stagesOf(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'));
  const [build, runtime] = stages;
  const uses = (stage: Instruction[] | undefined, keyword: string, pattern: RegExp) =>
    (stage ?? []).some((i) => i.keyword === keyword && pattern.test(i.args));

  it('finds the eight services, each an Nx project named like its directory (the build names it so)', () => {
    expect(services).toHaveLength(8);
    for (const name of services) {
      const project = JSON.parse(readFileSync(join(ROOT, 'services', name, 'project.json'), 'utf8')) as {
        name: string;
      };
      expect(project.name).toBe(name);
      expect(existsSync(join(ROOT, 'services', name, 'Dockerfile'))).toBe(false);
    }
  });

  it('builds every service in docker-compose.yml from the root Dockerfile with its name as SERVICE', () => {
    for (const name of services) {
      expect({ name, build: compose.services[name]?.build }).toEqual({
        name,
        build: { context: '.', dockerfile: 'Dockerfile', args: { SERVICE: name } },
      });
      expect(compose.services[name]!.image).toMatch(new RegExp(`^engram/${name}:`));
    }
    // The one-shot migration runs the CLI of a service's image.
    const migrate = compose.services['migrate']!.build!;
    expect(migrate).toMatchObject({ context: '.', dockerfile: 'Dockerfile' });
    expect(services).toContain(migrate.args!['SERVICE']);
  });

  it('takes SERVICE in both stages and uses it to build, copy and run the service', () => {
    expect(stages).toHaveLength(2);
    for (const stage of stages) expect(uses(stage, 'ARG', /^SERVICE$/)).toBe(true);
    expect(uses(build, 'RUN', /nx run-many -t build --projects=\$\{SERVICE\},cli /)).toBe(true);
    expect(
      uses(runtime, 'COPY', /^--from=build \/app\/services\/\$\{SERVICE\} \.\/services\/\$\{SERVICE\}$/),
    ).toBe(true);
    expect(uses(runtime, 'ENV', /\bENGRAM_SERVICE=\$\{SERVICE\}/)).toBe(true);
    expect(uses(runtime, 'CMD', /exec node services\/\$\{ENGRAM_SERVICE\}\/dist\/main\.js/)).toBe(true);
    expect(uses(runtime, 'HEALTHCHECK', /DEFAULT_HTTP_PORTS\[process\.env\.ENGRAM_SERVICE\]/)).toBe(true);
  });
});
