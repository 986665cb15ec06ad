import { Consumers, Events, Rpcs, WorkItems, type Announcement } from '@engram/contracts';
import { serviceSources } from './service-sources';

const ANNOUNCEMENT = /\b(?:Events|WorkItems)\.(\w+)\b/g;
const known = new Set<string>([...Object.keys(Events), ...Object.keys(WorkItems)]);

/** What a service's handlers declare they announce, over its consumers and RPCs. */
function declared(service: string): string[] {
  const handlers = [...Object.values(Consumers), ...Object.values(Rpcs)].filter((h) => h.owner === service);
  return [...new Set(handlers.flatMap((h): readonly Announcement[] => h.publishes))].sort();
}

/** What a service's code names as an event or work item (it names one only to announce it). */
function announced(service: string): string[] {
  const names = serviceSources()
    .filter((s) => s.path.startsWith(`services/${service}/src/`))
    .flatMap((s) => [...s.text.matchAll(ANNOUNCEMENT)].map((m) => m[1]!));
  return [...new Set(names)].filter((name) => known.has(name)).sort();
}

/**
 * The flow diagram and the ARCHITECTURE table are drawn from `publishes`: a service whose
 * code announces what its handlers do not declare (or the reverse) would draw a false picture.
 */
describe('what each service announces', () => {
  const services = [
    ...new Set([...Object.values(Consumers), ...Object.values(Rpcs)].map((h) => h.owner)),
  ].sort();

  it.each(services)('%s announces exactly what its consumers and RPCs declare', (service) => {
    expect({ service, announces: announced(service) }).toEqual({ service, announces: declared(service) });
  });
});
