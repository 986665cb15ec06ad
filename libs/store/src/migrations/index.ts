import { Transcript1760000000000 } from './1760000000000-transcript';
import { EmbeddingWork1760000000001 } from './1760000000001-embedding-work';
import { VectorsApart1760000000002 } from './1760000000002-vectors-apart';
import { LighterVectorGraph1760000000003 } from './1760000000003-lighter-vector-graph';

/** In order. Never edit a migration that has shipped: add the next one. */
export const MIGRATIONS = [
  Transcript1760000000000,
  EmbeddingWork1760000000001,
  VectorsApart1760000000002,
  LighterVectorGraph1760000000003,
];
