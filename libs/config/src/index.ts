export * from './variables';
export * from './service-variables';
export * from './load-config';
export * from './config-table';
