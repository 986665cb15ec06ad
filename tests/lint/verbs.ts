/**
 * The verbs of the RPC grammar (CONTRIBUTING.md, "Name an RPC"): the CRUD verbs (get, list, put,
 * add, update), then the domain verbs of memory, context and inference. A use case is entered
 * through one of these or a worker's verb (use-case-names.spec.ts).
 */
export const RPC_VERBS = [
  'get',
  'list',
  'put',
  'add',
  'update',
  'search',
  'browse',
  'expand',
  'save',
  'forget',
  'erase',
  'build',
  'recall',
  'read',
  'pin',
  'redrive',
  'run',
  'embed',
  'complete',
] as const;
