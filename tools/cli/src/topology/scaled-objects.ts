import { Document, isMap, isSeq, type YAMLMap } from 'yaml';
import { Consumers, ENGRAM_ACCOUNT, type ConsumerSpec, type ServiceName } from '@engram/contracts';

/** Where KEDA reads JetStream's consumer lag: the NATS server's monitoring port. */
const NATS_MONITORING = 'nats.nats.svc.cluster.local:8222';
const GENERATED = '# Generated from libs/contracts/src/topology.ts by `npm run docs:topology`: do not edit.';

/** The consumers that scale a service, by owner, in topology order. */
export function scalingConsumers(): Map<ServiceName, ConsumerSpec[]> {
  const byOwner = new Map<ServiceName, ConsumerSpec[]>();
  for (const c of Object.values<ConsumerSpec>(Consumers)) {
    if (c.scaleAtLag === undefined) continue;
    byOwner.set(c.owner, [...(byOwner.get(c.owner) ?? []), c]);
  }
  return byOwner;
}

/** A consumer's description without its owner's name in front (`compactor: facts from…` → `facts from…`). */
const purpose = (c: ConsumerSpec) => c.description.replace(new RegExp(`^${c.owner}: `), '');

export const scaledObjectFile = (service: string) => `${service}.scaled-object.yaml`;

/** A KEDA ScaledObject for one worker: a nats-jetstream trigger per consumer that scales it. */
export function renderScaledObject(service: ServiceName, consumers: readonly ConsumerSpec[]): string {
  const doc = new Document({
    apiVersion: 'keda.sh/v1alpha1',
    kind: 'ScaledObject',
    metadata: {
      name: service,
      labels: { 'app.kubernetes.io/name': service, 'app.kubernetes.io/component': 'worker' },
    },
    spec: {
      scaleTargetRef: { name: service },
      minReplicaCount: 1,
      maxReplicaCount: 10,
      pollingInterval: 15,
      cooldownPeriod: 300,
      triggers: consumers.map((c) => ({
        type: 'nats-jetstream',
        metadata: {
          natsServerMonitoringEndpoint: NATS_MONITORING,
          // The streams live in the services' account (deploy/k8s/nats/values.yaml).
          account: ENGRAM_ACCOUNT,
          stream: c.stream.name,
          consumer: c.durable,
          lagThreshold: String(c.scaleAtLag),
          useHttps: 'false',
        },
      })),
    },
  });
  doc.commentBefore = [
    GENERATED.slice(1),
    ` ${service} scales on the backlogs of its consumers; KEDA takes the largest.`,
  ].join('\n');
  const spec = doc.get('spec') as YAMLMap;
  const minReplicas = spec.items.find((p) => String(p.key) === 'minReplicaCount');
  if (minReplicas && typeof minReplicas.key === 'object' && minReplicas.key !== null)
    (minReplicas.key as { commentBefore?: string }).commentBefore =
      ' Never to zero: one replica stays warm, so new work starts at once.';
  const triggers = spec.get('triggers');
  if (isSeq(triggers))
    triggers.items.forEach((item, i) => {
      if (isMap(item)) item.commentBefore = ` ${consumers[i]!.durable}: ${purpose(consumers[i]!)}`;
    });
  return doc.toString({ lineWidth: 0 });
}

/** Every generated ScaledObject, by file name under deploy/k8s/base/scaling. */
export function renderScaledObjects(): Map<string, string> {
  return new Map(
    [...scalingConsumers()].map(([service, consumers]) => [
      scaledObjectFile(service),
      renderScaledObject(service, consumers),
    ]),
  );
}

/**
 * JSON patches of an overlay's kustomization that point every trigger of every generated
 * ScaledObject at another NATS monitoring endpoint (triggers are a list: addressed by index).
 */
export function renderEndpointPatches(endpoint: string): string {
  return [...scalingConsumers()]
    .flatMap(([service, consumers]) => [
      '  - target:',
      '      kind: ScaledObject',
      `      name: ${service}`,
      '    patch: |-',
      ...consumers.flatMap((_, i) => [
        '      - op: replace',
        `        path: /spec/triggers/${i}/metadata/natsServerMonitoringEndpoint`,
        `        value: ${endpoint}`,
      ]),
    ])
    .join('\n');
}

/** The kustomization with its `scaling/` resources replaced by the generated ones (where the first stood). */
export function withScalingResources(kustomization: string, files: readonly string[]): string {
  const lines = kustomization.split('\n');
  const isScaling = (line: string) => /^\s*- scaling\//.test(line);
  const at = lines.findIndex(isScaling);
  if (at < 0) throw new Error('the kustomization lists no scaling/ resource to replace');
  const indent = lines[at]!.slice(0, lines[at]!.indexOf('-'));
  const kept = lines.filter((line, i) => !isScaling(line) || i === at);
  const index = kept.indexOf(lines[at]!);
  kept.splice(index, 1, ...files.map((f) => `${indent}- scaling/${f}`));
  return kept.join('\n');
}
