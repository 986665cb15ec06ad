export * from './tasks/task-inputs';
export * from './tasks/task-prompts';
