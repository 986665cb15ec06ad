import {
  Inject,
  Injectable,
  SetMetadata,
  type CanActivate,
  type ExecutionContext,
  createParamDecorator,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { ApiPrincipal } from '@engram/store';
import { API_CONFIG, type ApiConfig } from '../api.config';
import { ApiProblem } from '../http/problem';
import { ApiKeyVerifier } from './api-key.verifier';

/** Authorization schemes a controller accepts; Bearer unless it says otherwise. */
export const AUTH_SCHEMES = 'engram:auth-schemes';
export const AuthSchemes = (...schemes: string[]) => SetMetadata(AUTH_SCHEMES, schemes);

type AuthenticatedRequest = FastifyRequest & { principal?: ApiPrincipal };

/** The principal the guard found: the key's id and, above all, its tenant. */
export const Principal = createParamDecorator((_: unknown, ctx: ExecutionContext): ApiPrincipal => {
  const principal = ctx.switchToHttp().getRequest<AuthenticatedRequest>().principal;
  if (!principal) throw new Error('route without ApiKeyGuard asked for the principal');
  return principal;
});

/** The credential of `Authorization: <scheme> <key>` when the scheme is one accepted; else undefined. */
export function credentialOf(header: string | undefined, schemes: readonly string[]): string | undefined {
  const match = /^(\S+)\s+(\S+)\s*$/.exec(header ?? '');
  if (!match) return undefined;
  return schemes.some((s) => s.toLowerCase() === match[1]!.toLowerCase()) ? match[2] : undefined;
}

/**
 * Every memory route: the API key decides the tenant (nothing in the request can), and each
 * key may make API_RATE_LIMIT_PER_MINUTE requests a minute on this replica.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  private readonly limiter?: RateLimiterMemory;

  constructor(
    private readonly verifier: ApiKeyVerifier,
    private readonly reflector: Reflector,
    @Inject(API_CONFIG) config: ApiConfig,
  ) {
    if (config.API_RATE_LIMIT_PER_MINUTE > 0)
      this.limiter = new RateLimiterMemory({ points: config.API_RATE_LIMIT_PER_MINUTE, duration: 60 });
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const schemes = this.reflector.getAllAndOverride<string[] | undefined>(AUTH_SCHEMES, [
      context.getHandler(),
      context.getClass(),
    ]) ?? ['Bearer'];
    const challenge = { 'www-authenticate': `${schemes[0]} realm="engram"` };
    const credential = credentialOf(request.headers.authorization, schemes);
    if (!credential)
      throw new ApiProblem(
        'UNAUTHENTICATED',
        `send an API key as "Authorization: ${schemes.join(' <key>" or "')} <key>" (make one with: engram apikey create --tenant <tenant>)`,
        challenge,
      );
    const principal = await this.verifier.verify(credential);
    if (!principal) throw new ApiProblem('UNAUTHENTICATED', 'unknown or revoked API key', challenge);
    await this.spend(principal.keyId);
    request.principal = principal;
    return true;
  }

  private async spend(keyId: string): Promise<void> {
    if (!this.limiter) return;
    try {
      await this.limiter.consume(keyId);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const seconds = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      throw new ApiProblem(
        'RESOURCE_EXHAUSTED',
        `rate limit of this API key reached; retry in ${seconds} s`,
        {
          'retry-after': String(seconds),
        },
      );
    }
  }
}
