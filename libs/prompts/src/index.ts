export * from './tasks/task-inputs';
export * from './tasks/task-answers';
export * from './tasks/task-prompts';
export * from './tasks/answer-from-memory.prompt';
export * from './tasks/memory-answer-citations';
export * from './tasks/scene-memory.prompt';
export * from './tasks/scene-memory-checks';
