// @ts-check
/** One jest run for the whole repo: fast unit specs, then the integration and
 * end-to-end specs that talk to a real Postgres (pgvector) and real NATS JetStream. */
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  },
];

/**
 * npm packages published as ES modules only ("type": "module", e.g. the AI SDK's `ai` and
 * `@ai-sdk/*`): jest runs specs as CommonJS, so their .js is compiled to CommonJS by swc; every
 * other package, and every file of the repository that is not TypeScript, is loaded as it is.
 */
const ESM_ONLY_PACKAGES = '(ai|@ai-sdk|@standard-schema|eventsource-parser|@workflow/serde)';

const esmToCommonJs = [
  '@swc/jest',
  { jsc: { parser: { syntax: 'ecmascript' }, target: 'es2022' }, module: { type: 'commonjs' } },
];

const common = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': swc, [`/node_modules/${ESM_ONLY_PACKAGES}/.+\\.js$`]: esmToCommonJs },
  transformIgnorePatterns: [`/node_modules/(?!${ESM_ONLY_PACKAGES}/)`],
  moduleNameMapper: {
    '^@engram/([a-z-]+)$': '<rootDir>/libs/$1/src/index.ts',
    // The AI SDK imports a zod locale by its ESM file name; zod's CommonJS build has it as .cjs.
    '^zod/v4/locales/([a-z-]+)\\.js$': 'zod/v4/locales/$1.cjs',
  },
  modulePathIgnorePatterns: ['<rootDir>/.*/dist/'],
  setupFiles: ['reflect-metadata'],
};

/** @type {import('jest').Config} */
module.exports = {
  // Integration suites wait on real processes more than they compute: two at a time halve the
  // run on the 2-core CI machine (measured 30.4 → 16.3 min, every suite green), where jest's
  // default (cores − 1) ran them one by one.
  maxWorkers: 2,
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/{libs,services,tools,scripts,tests}/**/*.spec.ts'],
      testTimeout: 30_000,
    },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/{libs,services,tools}/**/*.int-spec.ts', '<rootDir>/tests/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/libs/testing/src/global-setup.ts',
      globalTeardown: '<rootDir>/libs/testing/src/global-teardown.ts',
      setupFilesAfterEnv: ['<rootDir>/libs/testing/src/integration-timeouts.ts'],
      slowTestThreshold: 30,
    },
  ],
};
