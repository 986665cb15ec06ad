import { DEFAULT_HTTP_PORTS, type ServiceName } from '@engram/config';

export const ALL_SERVICES = Object.keys(DEFAULT_HTTP_PORTS) as ServiceName[];

/** The services to start: all, or the comma-separated subset named in ENGRAM_STACK_SERVICES. */
export function selectServices(subset: string | undefined): ServiceName[] {
  if (!subset) return ALL_SERVICES;
  const wanted = subset
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = wanted.filter((s) => !(ALL_SERVICES as string[]).includes(s));
  if (unknown.length)
    throw new Error(
      `ENGRAM_STACK_SERVICES names unknown services: ${unknown.join(', ')} (known: ${ALL_SERVICES.join(', ')})`,
    );
  return wanted as ServiceName[];
}

export function portOf(service: ServiceName, offset: number): number {
  return DEFAULT_HTTP_PORTS[service] + offset;
}
