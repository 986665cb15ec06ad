export * from './embedding';
export * from './language';
