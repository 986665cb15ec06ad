import { Controller } from '@nestjs/common';
import {
  Rpcs,
  timestampFromDate,
  type MessageInitShape,
  type PatrolReportSchema,
  type RunPatrolRequest,
} from '@engram/contracts';
import { HandleRpc, RpcError, type RpcCallContext } from '@engram/messaging';
import { RunPatrolUseCase, type PatrolOutcome } from './run-patrol.use-case';

type PatrolReportInit = MessageInitShape<typeof PatrolReportSchema>;

/** What a run changed, step by step, as the RPC answers it. */
export function reportOf(agent: string, outcome: PatrolOutcome): PatrolReportInit {
  return {
    runId: outcome.run.id,
    agent,
    resumed: outcome.resumed,
    steps: outcome.steps.map((s) => ({
      step: s.step,
      skipped: s.skipped,
      reason: s.reason ?? '',
      counts: s.counts,
    })),
    startedAt: timestampFromDate(outcome.run.startedAt),
    ...(outcome.run.finishedAt && { finishedAt: timestampFromDate(outcome.run.finishedAt) }),
  };
}

/** mem.rpc.patrol.run.{tenant}: a patrol of the being now; what it changed. */
@Controller()
export class PatrolRunHandler {
  constructor(private readonly patrol: RunPatrolUseCase) {}

  @HandleRpc(Rpcs.patrolRun)
  async run(request: RunPatrolRequest, ctx: RpcCallContext): Promise<PatrolReportInit> {
    const outcome = await this.patrol.run({
      tenantId: ctx.tenantId,
      agent: request.agent,
      trigger: 'demand',
      ...(request.model && { model: request.model }),
      ...(request.apiKey && { apiKey: request.apiKey }),
    });
    if (!outcome)
      throw RpcError.failedPrecondition(
        `a patrol of "${request.agent}" is running; ask again when it has finished`,
        {
          agent: request.agent,
          running: true,
        },
      );
    return reportOf(request.agent, outcome);
  }
}
