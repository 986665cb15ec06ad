import { SERVICE_NAMES, timestampDate, timestampFromDate, type ServiceHeartbeat } from '@engram/contracts';
import { HEARTBEAT_INTERVAL_MS } from './heartbeat.publisher';

/** A replica unheard for this long is gone. */
export const INSTANCE_GONE_AFTER_MS = 3 * HEARTBEAT_INTERVAL_MS;
/** Minutes of activity kept and reported. */
export const ACTIVITY_MINUTES = 60;
const MINUTE_MS = 60_000;

interface Heard {
  readonly heartbeat: ServiceHeartbeat;
  readonly atMs: number;
}

interface Minute {
  messagesStored: number;
  vectorsMade: number;
  vectorLagSeconds: number;
}

/** What health reports of one service. */
export interface ServiceHealthView {
  readonly service: string;
  readonly status: 'up' | 'degraded' | 'down';
  readonly instances: Array<{
    readonly instance: string;
    readonly ready: boolean;
    readonly dependencies: ServiceHeartbeat['dependencies'];
    readonly startedAt: ServiceHeartbeat['startedAt'];
    readonly lastSeenAt: ReturnType<typeof timestampFromDate>;
  }>;
}

/** One minute of activity. */
export interface MinuteActivityView {
  readonly minute: ReturnType<typeof timestampFromDate>;
  readonly messagesStored: number;
  readonly vectorsMade: number;
  readonly meanVectorLagMs: number;
}

/**
 * The heartbeats one api replica heard, kept as what health shows: each service's live replicas
 * (heard within INSTANCE_GONE_AFTER_MS) and, per minute of the last hour, what the counters grew
 * by over all replicas. A counter that went down is a restarted process: it counts from zero.
 * A replica first heard long after it started counts from that heartbeat on, not its whole past.
 */
export class HealthBook {
  private readonly heard = new Map<string, Heard>();
  private readonly minutes = new Map<number, Minute>();

  /** Takes one heartbeat, heard at `nowMs`. */
  record(heartbeat: ServiceHeartbeat, nowMs: number): void {
    const key = `${heartbeat.service}/${heartbeat.instance}`;
    const before = this.heard.get(key);
    this.heard.set(key, { heartbeat, atMs: nowMs });
    const startedMs = heartbeat.startedAt ? timestampDate(heartbeat.startedAt).getTime() : 0;
    const fresh = !before && nowMs - startedMs <= 2 * HEARTBEAT_INTERVAL_MS;
    if (!before && !fresh) return;
    const grown = (name: string) => {
      const now = heartbeat.counters[name] ?? 0;
      const then = before?.heartbeat.counters[name] ?? 0;
      return now >= then ? now - then : now;
    };
    const minute = this.minuteAt(nowMs);
    minute.messagesStored += grown('messages_stored');
    minute.vectorsMade += grown('vectors_made');
    minute.vectorLagSeconds += grown('vector_lag_seconds');
    this.forget(nowMs);
  }

  /** Every service, with the replicas heard lately, and its status. */
  services(nowMs: number): ServiceHealthView[] {
    return SERVICE_NAMES.map((service) => {
      const instances = [...this.heard.values()]
        .filter((h) => h.heartbeat.service === service && nowMs - h.atMs <= INSTANCE_GONE_AFTER_MS)
        .map(({ heartbeat, atMs }) => ({
          instance: heartbeat.instance,
          ready: heartbeat.ready,
          dependencies: heartbeat.dependencies,
          startedAt: heartbeat.startedAt,
          lastSeenAt: timestampFromDate(new Date(atMs)),
        }))
        .sort((a, b) => a.instance.localeCompare(b.instance));
      const status = instances.length === 0 ? 'down' : instances.every((i) => i.ready) ? 'up' : 'degraded';
      return { service, status, instances };
    });
  }

  /** The last ACTIVITY_MINUTES minutes, oldest first, the current one last (empty minutes as zeros). */
  activity(nowMs: number): MinuteActivityView[] {
    const current = Math.floor(nowMs / MINUTE_MS);
    return Array.from({ length: ACTIVITY_MINUTES }, (_, i) => {
      const at = current - ACTIVITY_MINUTES + 1 + i;
      const m = this.minutes.get(at);
      return {
        minute: timestampFromDate(new Date(at * MINUTE_MS)),
        messagesStored: m?.messagesStored ?? 0,
        vectorsMade: m?.vectorsMade ?? 0,
        meanVectorLagMs: m && m.vectorsMade > 0 ? (m.vectorLagSeconds / m.vectorsMade) * 1000 : 0,
      };
    });
  }

  private minuteAt(nowMs: number): Minute {
    const at = Math.floor(nowMs / MINUTE_MS);
    let minute = this.minutes.get(at);
    if (!minute) this.minutes.set(at, (minute = { messagesStored: 0, vectorsMade: 0, vectorLagSeconds: 0 }));
    return minute;
  }

  /** Drops minutes older than the hour shown, and replicas unheard for as long. */
  private forget(nowMs: number): void {
    const oldest = Math.floor(nowMs / MINUTE_MS) - ACTIVITY_MINUTES;
    for (const at of this.minutes.keys()) if (at <= oldest) this.minutes.delete(at);
    for (const [key, h] of this.heard)
      if (nowMs - h.atMs > ACTIVITY_MINUTES * MINUTE_MS) this.heard.delete(key);
  }
}
