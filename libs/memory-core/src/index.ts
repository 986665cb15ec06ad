export * from './text/token-estimate';
export * from './text/words';
export * from './tags/memory-tags';
export * from './facts/fact-kinds';
export * from './facts/word-overlap';
export * from './turns/normalize-turn';
export * from './paging/transcript-cursor';
