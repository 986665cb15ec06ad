// @ts-check
import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

/** Services talk to each other over NATS only; code is shared through libs. */
const boundaries = {
  enforceBuildableLibDependency: false,
  allow: [],
  // messaging's own integration spec starts a nats-server with libs/testing, whose harness
  // starts services on messaging's transport: a cycle through a spec only (and the build
  // ignores it: libs/messaging/project.json drops the inferred dependency on testing).
  // Likewise store's migration specs take scratch databases from libs/testing, which
  // migrates them with store (libs/store/project.json drops the dependency on testing).
  ignoredCircularDependencies: [
    ['messaging', 'testing'],
    ['store', 'testing'],
  ],
  depConstraints: [
    { sourceTag: 'type:service', onlyDependOnLibsWithTags: ['type:lib'] },
    { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
    { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:lib'] },
    { sourceTag: 'type:test', onlyDependOnLibsWithTags: ['type:lib'] },
  ],
};

/** What the pure libs (rules and ranking, tag layer:pure) never reach: the database, NATS, Nest, the network. */
const INFRASTRUCTURE = ['@nestjs/*', 'typeorm', 'pg', '@nats-io/*', 'undici', '@opentelemetry/*'];

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/.nx/**',
      'libs/contracts/src/gen/**',
      '**/*.mjs',
      '**/*.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { '@nx': nx },
    rules: {
      '@nx/enforce-module-boundaries': ['error', boundaries],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    // The pure libs' code (their specs may seed a database) depends on pure libs only and on no
    // infrastructure package, so its rules run and are tested without a process around them.
    files: ['libs/{memory-core,being,search,context,prompts,contracts,local-model}/src/**/*.ts'],
    ignores: ['**/*.spec.ts', '**/*.int-spec.ts'],
    plugins: { '@nx': nx },
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          ...boundaries,
          depConstraints: [
            ...boundaries.depConstraints,
            {
              sourceTag: 'layer:pure',
              onlyDependOnLibsWithTags: ['layer:pure'],
              bannedExternalImports: INFRASTRUCTURE,
            },
          ],
        },
      ],
    },
  },
  {
    // Type-aware rules over the program `npm run lint` type-checks (tsconfig.specs.json): a promise
    // nobody awaits or catches loses its error; a switch over a union names every case or says
    // default.
    files: ['{libs,services,tools,tests,scripts}/**/*.ts'],
    ignores: ['libs/local-model/scripts/**'],
    languageOptions: {
      parserOptions: { project: ['./tsconfig.specs.json'], tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true },
      ],
    },
  },
  {
    // The published packages' build configurations share one definition (tsup.published.ts); a
    // build configuration is not code of the lib.
    files: ['libs/*/tsup.config.ts'],
    rules: { '@nx/enforce-module-boundaries': 'off' },
  },
);
