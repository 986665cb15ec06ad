export { EngramStore, type EngramStoreOptions, type SearchItem } from './engram-store';
export { ITEM_ROOT, type ItemRecord } from './item-fact';
