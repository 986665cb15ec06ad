import { errorCodes, type FastifyInstance } from 'fastify';

/** Oversized bodies read to their end before the 413, up to this many times the limit; larger ones are cut off. */
const READ_THROUGH_FACTOR = 16;

/**
 * A body declared larger than `limit` is read (and dropped) to its end before the request is
 * refused with 413. Refused at once, Fastify closes the connection while the client may still
 * be sending, and that client sees a broken pipe (EPIPE) instead of the problem; read through,
 * the answer arrives and the connection stays open. A body declared larger than
 * READ_THROUGH_FACTOR × `limit` is still refused at once.
 */
export function readOversizedBodiesThrough(server: FastifyInstance, limit: number): void {
  server.addHook('onRequest', (request, _reply, done) => {
    const declared = Number(request.headers['content-length']);
    if (!(declared > limit) || declared > READ_THROUGH_FACTOR * limit) return done();
    request.raw
      .once('end', () => done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE()))
      .once('error', (error) => done(error))
      .resume();
  });
}
