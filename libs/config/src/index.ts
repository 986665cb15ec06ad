export * from './variables';
export * from './load-config';
export * from './config-table';
