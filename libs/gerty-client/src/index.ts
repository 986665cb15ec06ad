export * from './gerty.client';
export * from './task-input-struct';
