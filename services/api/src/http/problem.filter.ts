import { Catch, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { RpcError } from '@engram/messaging';
import { ApiProblem, problemOf } from './problem';

/** Every error a route throws, as problem+json. */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  /** Also sendProblem's, for what fails before a route runs. */
  static readonly logger = new Logger(ProblemFilter.name);

  catch(error: unknown, host: ArgumentsHost): void {
    sendProblem(host.switchToHttp().getResponse<FastifyReply>(), error);
  }
}

/** Answers a failure as application/problem+json, with the headers its kind needs (Retry-After …). */
export function sendProblem(reply: FastifyReply, error: unknown): void {
  const body = problemOf(error);
  if (body.code === 'INTERNAL' && !(error instanceof RpcError)) ProblemFilter.logger.error(error);
  if (error instanceof ApiProblem) reply.headers(error.headers);
  // The service behind the route has no room right now: a second is its usual wait.
  if (error instanceof RpcError && error.code === 'RESOURCE_EXHAUSTED') reply.header('retry-after', '1');
  void reply
    .status(body.status)
    .header('content-type', 'application/problem+json')
    .send(JSON.stringify(body));
}
