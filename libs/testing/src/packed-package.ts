import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const REPO = resolve(__dirname, '../../..');

/** The package.json a tarball carries, as a publishable package must have it. */
export interface PackedManifest {
  readonly name: string;
  readonly exports: Record<string, unknown>;
  readonly dependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly devDependencies?: unknown;
  readonly private?: unknown;
}

/** The builds a published library holds: ESM and CommonJS, each with its declarations. */
export const PACKED_BUILDS = [
  'dist/index.d.mts',
  'dist/index.d.ts',
  'dist/index.js',
  'dist/index.mjs',
] as const;

/** The exports map of a library published for both import and require, with types for each. */
export const DUAL_EXPORTS = {
  import: { types: './dist/index.d.mts', default: './dist/index.mjs' },
  require: { types: './dist/index.d.ts', default: './dist/index.js' },
} as const;

/** What a package's code imports by name (not relative paths). */
const IMPORTS = /(?:from |require\(|import\()['"]([^'"./][^'"]*)['"]/g;

/** What publishing a library rests on, as one value a spec compares whole (PackedPackage.publication). */
export interface Publication {
  readonly name: string;
  /** Its exports of '.' (DUAL_EXPORTS for a library published for import and require). */
  readonly mainExport: unknown;
  /** Undefined for a public package. */
  readonly private: unknown;
  /** Sorted names. */
  readonly peerDependencies: string[];
  /** Sorted names. */
  readonly dependencies: string[];
  /** The builds (PACKED_BUILDS), README.md and package.json the tarball lacks. */
  readonly missingFiles: string[];
  readonly strayFiles: readonly string[];
  readonly undeclaredImports: string[];
}

/** A workspace package packed and installed into an application outside the repository. */
export interface PackedPackage {
  /** The tarball's files, sorted. */
  readonly files: readonly string[];
  readonly manifest: PackedManifest;
  /** The application's directory (its node_modules holds the package). */
  readonly appDir: string;
  /** The installed package's directory. */
  readonly installedDir: string;
  /** Files beyond the builds (and their source maps), README.md and package.json: sources, specs … */
  readonly strayFiles: readonly string[];
  /** Packages the builds import that are neither Node's nor declared (dependencies, peers), e.g. workspace code left unbundled. */
  undeclaredImports(): string[];
  /** Its name, main export, privacy, dependencies and peers, and what it lacks, holds or imports that it should not. */
  publication(): Publication;
  /** Writes a file of the application. */
  write(file: string, text: string): void;
  /** Runs node in the application's directory; its stdout. */
  node(args: readonly string[]): string;
  /**
   * tsc --noEmit --strict (nodenext) over the application's file: its output, '' when it
   * type-checks. skipLibCheck for a framework whose own declarations need it (as its projects set).
   */
  typecheck(file: string, options?: { skipLibCheck?: boolean }): string;
  remove(): void;
}

/**
 * `npm pack` of a built workspace library, installed by hand into a directory outside the
 * repository: the tarball's files under node_modules/<name>, and its declared dependencies and
 * peer dependencies — and nothing else — linked from the workspace's node_modules (an offline
 * `npm install` of the tarball cannot resolve version ranges without the registry). A package
 * that leaned on workspace code it did not bundle or declare fails to load there.
 */
export function installPacked(libDir: string): PackedPackage {
  if (!existsSync(join(libDir, 'dist'))) throw new Error(`${libDir} is not built: run \`npm run build\``);
  const dir = mkdtempSync(join(tmpdir(), 'engram-pack-'));
  const appDir = join(dir, 'app');
  const [result] = JSON.parse(
    execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
      cwd: libDir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  ) as Array<{ name: string; filename: string; files: Array<{ path: string }> }>;
  const installedDir = join(appDir, 'node_modules', result!.name);
  mkdirSync(installedDir, { recursive: true });
  execFileSync('tar', ['-xzf', join(dir, result!.filename), '-C', installedDir, '--strip-components=1']);
  const installed = JSON.parse(readFileSync(join(installedDir, 'package.json'), 'utf8')) as PackedManifest;
  for (const dependency of Object.keys({ ...installed.dependencies, ...installed.peerDependencies })) {
    const link = join(appDir, 'node_modules', dependency);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(join(REPO, 'node_modules', dependency), link, 'dir');
  }
  writeFileSync(join(appDir, 'package.json'), JSON.stringify({ name: 'app', private: true }));
  const node = (args: readonly string[]) =>
    execFileSync(process.execPath, args, { cwd: appDir, encoding: 'utf8', timeout: 60_000 });
  const files = result!.files.map((f) => f.path).sort();
  const packed: PackedPackage = {
    files,
    strayFiles: files.filter(
      (f) => !/^(dist\/index\.(mjs|js|d\.ts|d\.mts)(\.map)?|README\.md|package\.json)$/.test(f),
    ),
    publication: () => ({
      name: installed.name,
      mainExport: installed.exports['.'],
      private: installed.private,
      peerDependencies: Object.keys(installed.peerDependencies ?? {}).sort(),
      dependencies: Object.keys(installed.dependencies ?? {}).sort(),
      missingFiles: [...PACKED_BUILDS, 'README.md', 'package.json'].filter((f) => !files.includes(f)),
      strayFiles: packed.strayFiles,
      undeclaredImports: packed.undeclaredImports(),
    }),
    undeclaredImports() {
      const declared = Object.keys({ ...installed.dependencies, ...installed.peerDependencies });
      const imported = PACKED_BUILDS.flatMap((build) =>
        [...readFileSync(join(installedDir, build), 'utf8').matchAll(IMPORTS)].map(([, name]) => name!),
      );
      return [...new Set(imported)].filter(
        (name) =>
          !builtinModules.includes(name.replace(/^node:/, '')) &&
          !declared.some((d) => name === d || name.startsWith(`${d}/`)),
      );
    },
    manifest: installed,
    appDir,
    installedDir,
    write: (file, text) => writeFileSync(join(appDir, file), text),
    node,
    typecheck(file, options = {}) {
      const tsc = join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');
      try {
        return node([
          tsc,
          '--noEmit',
          '--strict',
          '--module',
          'nodenext',
          '--moduleResolution',
          'nodenext',
          '--target',
          'es2022',
          '--types',
          'node',
          '--typeRoots',
          join(REPO, 'node_modules', '@types'),
          ...(options.skipLibCheck ? ['--skipLibCheck'] : []),
          file,
        ]);
      } catch (error) {
        return String((error as { stdout?: string }).stdout ?? error);
      }
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
  return packed;
}
