export * from './messages/messages';
export * from './errors/inference-error';
export * from './retry/retry-schedule';
export * from './json/extract-json';
export * from './json/schema-validator';
export * from './json/structured-prompts';
export * from './secrets/redact';
