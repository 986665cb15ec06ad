import { hostname } from 'node:os';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { encodeMessage, ServiceHeartbeatSchema, Subjects, timestampFromDate } from '@engram/contracts';
import {
  metricTotal,
  PeriodicTask,
  ReadinessRegistry,
  SharedMetricNames,
  ShutdownBudget,
} from '@engram/platform';
import { NatsClient } from '../connection/nats.client';
import { errorMessage } from '../consumers/error-message';
import { MESSAGING_OPTIONS, type MessagingOptions } from '../messaging.options';

/**
 * How long after its last heartbeat a replica sends the next; the api counts one unheard for three
 * of these as gone (a heartbeat's readiness report takes at most 2 s: well within them).
 */
export const HEARTBEAT_INTERVAL_MS = 5000;

/** The heartbeat's counters, each read from the process's metrics (summed over their labels). */
export const HEARTBEAT_COUNTERS = {
  messages_stored: SharedMetricNames.messagesStored,
  vectors_made: `${SharedMetricNames.vectorLag}_count`,
  vector_lag_seconds: `${SharedMetricNames.vectorLag}_sum`,
} as const;

/**
 * Every replica of every service announces itself on mem.control.heartbeat.{service} at start
 * and every HEARTBEAT_INTERVAL_MS after (core NATS: nothing is kept): its readiness, each
 * dependency's verdict, and the counters the health charts are drawn from. Missing one costs
 * nothing but a gap.
 */
@Injectable()
export class HeartbeatPublisher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(HeartbeatPublisher.name);
  private readonly instance = `${hostname()}:${process.pid}`;
  private readonly startedAt = new Date(Date.now() - process.uptime() * 1000);
  private readonly beats: PeriodicTask<void>;

  constructor(
    @Inject(MESSAGING_OPTIONS) private readonly options: MessagingOptions,
    private readonly nats: NatsClient,
    private readonly readiness: ReadinessRegistry,
    shutdown: ShutdownBudget,
  ) {
    this.beats = new PeriodicTask({
      name: 'the heartbeat',
      run: () => this.beat(),
      intervalMs: HEARTBEAT_INTERVAL_MS,
      immediate: true,
      shutdown,
    });
  }

  onApplicationBootstrap(): void {
    this.beats.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.beats.stop();
  }

  /** One heartbeat, when connected (never throws). */
  async beat(): Promise<void> {
    const handles = this.nats.ifConnected();
    if (!handles) return;
    try {
      const verdicts = await this.readiness.report();
      handles.connection.publish(
        Subjects.heartbeat(this.options.service),
        encodeMessage(ServiceHeartbeatSchema, {
          service: this.options.service,
          instance: this.instance,
          startedAt: timestampFromDate(this.startedAt),
          sentAt: timestampFromDate(new Date()),
          ready: verdicts.every((v) => v.up),
          dependencies: verdicts.map((v) => ({ name: v.name, up: v.up, reason: v.up ? '' : v.reason })),
          counters: await readCounters(),
        }),
      );
    } catch (error) {
      this.logger.warn(`heartbeat not sent: ${errorMessage(error)}`);
    }
  }
}

/** The heartbeat's counters this process has (a metric it never registered is left out). */
async function readCounters(): Promise<Record<string, number>> {
  const counters: Record<string, number> = {};
  for (const [name, metric] of Object.entries(HEARTBEAT_COUNTERS)) {
    const total = await metricTotal(metric);
    if (total !== null) counters[name] = total;
  }
  return counters;
}
