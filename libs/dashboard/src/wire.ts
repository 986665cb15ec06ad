/**
 * The api's JSON as the page reads it, from the contracts' protobuf JSON types (`*Json` of
 * @engram/contracts). The services write every message with its implicit fields (codec.ts,
 * alwaysEmitImplicit), so every field is there but those named `Unset`: message fields
 * (timestamps, nested messages) and `optional` ones, absent when not set. Doubles are numbers:
 * the services write no NaN or Infinity.
 */
export type Emitted<T, Unset extends keyof T = never> = {
  -readonly [K in Exclude<keyof T, Unset>]-?: Finite<Exclude<T[K], undefined>>;
} & { -readonly [K in Unset]?: Finite<Exclude<T[K], undefined>> };

/** A protobuf JSON double without the strings it may also be. */
type Finite<V> = V extends 'NaN' | 'Infinity' | '-Infinity' ? never : V;

/** T with the fields of O in place of its own: a nested message as the page reads it. */
export type With<T, O> = Omit<T, keyof O> & O;
