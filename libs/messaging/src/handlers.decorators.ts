import { applyDecorators, Catch, UseFilters, type RpcExceptionFilter } from '@nestjs/common';
import { Ctx, EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import { throwError, type Observable } from 'rxjs';
import type { ConsumerSpec, MessageInitShape, MessageShape, RpcSpec } from '@engram/contracts';
import type { Delivery } from './consumers/delivery';
import type { RpcCallContext } from './rpc/rpc.endpoint';

export const ENGRAM_HANDLER = 'engram';

export type HandlerMeta =
  | { readonly kind: 'events' | 'batches'; readonly consumer: ConsumerSpec }
  | { readonly kind: 'rpc'; readonly rpc: RpcSpec };

/** What answers RPC `S`: its decoded (and checked) request and the call's context in, its response out. */
export type RpcHandler<S extends RpcSpec> = (
  request: MessageShape<S['request']>,
  ctx: RpcCallContext,
) => Promise<MessageInitShape<S['response']>>;

/** What handles consumer `C` one message at a time. */
export type EventHandler<C extends ConsumerSpec> = (
  delivery: Delivery<MessageShape<C['schema']>>,
) => Promise<void>;

/** What handles consumer `C` a batch at a time. */
export type EventBatchHandler<C extends ConsumerSpec> = (
  deliveries: Delivery<MessageShape<C['schema']>>[],
) => Promise<void>;

/**
 * A method decorator that compiles only on a method of shape `H` (it may take fewer
 * parameters). Generic in the method's own type: TypedPropertyDescriptor is invariant,
 * so constraining the method rather than the descriptor is what lets `models()` answer an RPC.
 */
export type HandlerDecorator<H> = <M extends H>(
  target: object,
  key: string | symbol,
  descriptor: TypedPropertyDescriptor<M>,
) => void;

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

function handler<H>(pattern: MethodDecorator): HandlerDecorator<H> {
  const decorate = applyDecorators(pattern, UseFilters(PassOriginalErrorFilter));
  return (target, key, descriptor) => {
    decorate(target, key, descriptor);
  };
}

/** Handles messages of a durable consumer one at a time: `handle(delivery)`. */
export function ConsumeEvents<C extends ConsumerSpec>(consumer: C): HandlerDecorator<EventHandler<C>> {
  return handler(
    EventPattern(consumer.durable, { [ENGRAM_HANDLER]: { kind: 'events', consumer } satisfies HandlerMeta }),
  );
}

/** Handles messages of a durable consumer in batches: `handle(deliveries)`. */
export function ConsumeEventBatches<C extends ConsumerSpec>(
  consumer: C,
): HandlerDecorator<EventBatchHandler<C>> {
  return handler(
    EventPattern(consumer.durable, { [ENGRAM_HANDLER]: { kind: 'batches', consumer } satisfies HandlerMeta }),
  );
}

/**
 * Answers an RPC: `handle(request, ctx)`, called once the request decoded and passed its
 * rules (RpcSpec.rules, libs/contracts), so a handler sees only valid requests. The decorator itself
 * tells Nest to pass both, in that order, so the method's type is all there is to it
 * (no @Payload/@Ctx on its parameters).
 */
export function HandleRpc<S extends RpcSpec>(rpc: S): HandlerDecorator<RpcHandler<S>> {
  return handler(
    applyDecorators(
      MessagePattern(rpc.subject, { [ENGRAM_HANDLER]: { kind: 'rpc', rpc } satisfies HandlerMeta }),
      (target: object, key: string | symbol) => {
        Payload()(target, key, 0);
        Ctx()(target, key, 1);
      },
    ),
  );
}
