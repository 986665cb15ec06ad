export * from './tenant.row';
export * from './conversation.row';
export * from './message.row';
export * from './summary.row';
export * from './fact.row';
export * from './state.row';
export * from './cluster.row';
