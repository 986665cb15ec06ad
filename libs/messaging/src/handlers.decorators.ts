import { applyDecorators, Catch, UseFilters, type RpcExceptionFilter } from '@nestjs/common';
import { EventPattern, MessagePattern } from '@nestjs/microservices';
import { throwError, type Observable } from 'rxjs';
import type { ConsumerSpec, RpcSpec } from '@engram/contracts';

export const ENGRAM_HANDLER = 'engram';

export type HandlerMeta =
  | { readonly kind: 'events' | 'batches'; readonly consumer: ConsumerSpec }
  | { readonly kind: 'rpc'; readonly rpc: RpcSpec };

/**
 * Nest's default RPC filter replaces every error with "Internal server error";
 * the transport needs the original to tell an invalid message from a transient failure.
 */
@Catch()
export class PassOriginalErrorFilter implements RpcExceptionFilter {
  catch(exception: unknown): Observable<never> {
    return throwError(() => exception);
  }
}

/** Handles messages of a durable consumer one at a time: `handle(delivery: Delivery<T>)`. */
export function ConsumeEvents(consumer: ConsumerSpec): MethodDecorator {
  return applyDecorators(
    EventPattern(consumer.durable, { [ENGRAM_HANDLER]: { kind: 'events', consumer } satisfies HandlerMeta }),
    UseFilters(PassOriginalErrorFilter),
  );
}

/** Handles messages of a durable consumer in batches: `handle(deliveries: Delivery<T>[])`. */
export function ConsumeEventBatches(consumer: ConsumerSpec): MethodDecorator {
  return applyDecorators(
    EventPattern(consumer.durable, { [ENGRAM_HANDLER]: { kind: 'batches', consumer } satisfies HandlerMeta }),
    UseFilters(PassOriginalErrorFilter),
  );
}

/** Answers an RPC: `handle(@Payload() request: Req, @Ctx() ctx: RpcCallContext): Promise<ResInit>`. */
export function HandleRpc(rpc: RpcSpec): MethodDecorator {
  return applyDecorators(
    MessagePattern(rpc.subject, { [ENGRAM_HANDLER]: { kind: 'rpc', rpc } satisfies HandlerMeta }),
    UseFilters(PassOriginalErrorFilter),
  );
}
