import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

export const REPOSITORY_ROOT = resolve(__dirname, '../..');

export interface ServiceSource {
  /** Relative to the repository's root. */
  readonly path: string;
  readonly text: string;
}

/** Every .ts file (not a spec) under services/<service>/src, with its text. */
export function serviceSources(): ServiceSource[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return walk(path);
      return entry.name.endsWith('.ts') && !/\.(int-|e2e-)?spec\.ts$/.test(entry.name) ? [path] : [];
    });
  const services = resolve(REPOSITORY_ROOT, 'services');
  return readdirSync(services)
    .flatMap((service) => walk(join(services, service, 'src')))
    .map((path) => ({ path: relative(REPOSITORY_ROOT, path), text: readFileSync(path, 'utf8') }));
}

/** Every .ts file (not a declaration or a spec) under these folders of the repository, build output and installed packages left out. */
export function sourcesUnder(...roots: string[]): ServiceSource[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return ['dist', 'node_modules'].includes(entry.name) ? [] : walk(path);
      return entry.name.endsWith('.ts') && !/\.(d|(int-|e2e-|type-)?spec)\.ts$/.test(entry.name)
        ? [path]
        : [];
    });
  return roots
    .flatMap((root) => walk(resolve(REPOSITORY_ROOT, root)))
    .map((path) => ({ path: relative(REPOSITORY_ROOT, path), text: readFileSync(path, 'utf8') }));
}
