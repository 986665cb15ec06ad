export { EngramSession, type EngramSessionOptions } from './engram-session';
export {
  engramContext,
  engramTools,
  type EngramContextOptions,
  type EngramToolsOptions,
} from './engram-memory';
