import { z } from 'zod';
import { Variables, type VariableName } from './variables';

export type ConfigOf<K extends VariableName> = {
  [P in K]: z.output<(typeof Variables)[P]['schema']>;
};

/** The environment does not describe a runnable configuration. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/**
 * Reads and validates the named variables (and only those) from the environment.
 * Empty strings count as unset, so `FOO=` falls back to the default.
 */
export function loadConfig<K extends VariableName>(
  names: readonly K[],
  source: NodeJS.ProcessEnv = process.env,
): ConfigOf<K> {
  const shape = Object.fromEntries(names.map((name) => [name, Variables[name].schema])) as unknown as Record<
    K,
    z.ZodType
  >;
  const input = Object.fromEntries(
    names.map((name) => [name, source[name] === '' ? undefined : source[name]]),
  );
  const result = z.object(shape).safeParse(input);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => {
        const name = String(issue.path[0] ?? '');
        const given = source[name];
        return `${name}=${given === undefined ? '(unset)' : JSON.stringify(given)}: ${issue.message}`;
      }),
    );
  }
  return result.data as ConfigOf<K>;
}
