import { Rpcs, SERVICE_NAMES, type RpcSpec } from '@engram/contracts';
import { serviceSources } from './service-sources';

const NAMED = /\bRpcs\.(\w+)\b/g;
const RPCS: Record<string, RpcSpec> = Rpcs;
/** What GertyClient requests for whoever uses it (its readiness check lists the models). */
const GERTY_CLIENT_RPCS = ['gertyEmbed', 'gertyComplete', 'gertyModels'];

/** The RPCs a service's code requests: those it names but does not answer, and Gerty's when it uses GertyClient. */
function requested(service: string): string[] {
  const sources = serviceSources().filter((s) => s.path.startsWith(`services/${service}/src/`));
  const names = new Set(sources.flatMap((s) => [...s.text.matchAll(NAMED)].map((m) => m[1]!)));
  if (sources.some((s) => s.text.includes(`from '@engram/gerty-client'`)))
    for (const name of GERTY_CLIENT_RPCS) names.add(name);
  return [...names].filter((name) => RPCS[name] && RPCS[name].owner !== service).sort();
}

/**
 * The NATS permissions of each service are generated from the RPCs' `callers`: a service whose
 * code requests an RPC it is not a declared caller of would be refused by nats-server.
 */
describe('what each service requests', () => {
  it.each(SERVICE_NAMES)('%s is a declared caller of every RPC its code requests', (service) => {
    const undeclared = requested(service).filter((name) => !RPCS[name]!.callers.includes(service));
    expect({ service, undeclared }).toEqual({ service, undeclared: [] });
  });
});
