import { Transcript1760000000000 } from './1760000000000-transcript';
import { EmbeddingWork1760000000001 } from './1760000000001-embedding-work';

/** In order. Never edit a migration that has shipped: add the next one. */
export const MIGRATIONS = [Transcript1760000000000, EmbeddingWork1760000000001];
