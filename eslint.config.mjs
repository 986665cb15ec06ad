// @ts-check
import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

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
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    rules: {
      // Services talk to each other over NATS only; code is shared through libs.
      '@nx/enforce-module-boundaries': [
        'error',
        {
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
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    // The framework packages' build configurations share one definition (tsup.adapter.ts); a build
    // configuration is not code of the lib.
    files: ['libs/*/tsup.config.ts'],
    rules: { '@nx/enforce-module-boundaries': 'off' },
  },
);
