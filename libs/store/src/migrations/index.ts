import { Transcript1760000000000 } from './1760000000000-transcript';

/** In order. Never edit a migration that has shipped: add the next one. */
export const MIGRATIONS = [Transcript1760000000000];
