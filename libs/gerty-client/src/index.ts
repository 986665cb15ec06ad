export * from './gerty.client';
export * from './task-input-struct';
export * from './embed-requests';
