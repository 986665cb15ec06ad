export * from './data-source';
export * from './entities';
export * from './migrations';
export * from './store.module';
export * from './tenancy/tenant-transactions';
export * from './setup/database-setup';
export { DataSource, type EntityManager } from 'typeorm';
export * from './tenancy/advisory-locks';
