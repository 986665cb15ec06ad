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

const common = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': swc },
  moduleNameMapper: { '^@engram/([a-z-]+)$': '<rootDir>/libs/$1/src/index.ts' },
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
