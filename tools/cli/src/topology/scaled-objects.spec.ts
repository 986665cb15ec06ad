import { parse } from 'yaml';
import { Consumers, type ConsumerSpec } from '@engram/contracts';
import { renderEndpointPatches, renderScaledObjects, withScalingResources } from './scaled-objects';

interface ScaledObject {
  metadata: { name: string };
  spec: {
    scaleTargetRef: { name: string };
    triggers: Array<{ metadata: { stream: string; consumer: string; lagThreshold: string } }>;
  };
}

describe('the KEDA ScaledObjects', () => {
  const objects = new Map(
    [...renderScaledObjects()].map(([file, text]) => [file, parse(text) as ScaledObject]),
  );

  it('scale the compactor on all three of its consumers', () => {
    const compactor = objects.get('compactor.scaled-object.yaml')!;
    expect(compactor.spec.scaleTargetRef.name).toBe('compactor');
    expect(compactor.spec.triggers.map((t) => t.metadata.consumer)).toEqual([
      'compactor-summaries',
      'compactor-facts',
      'compactor-sessions',
    ]);
  });

  it('name only consumers that exist, on their stream, with their lag threshold, owned by the scaled service', () => {
    const byDurable = new Map(Object.values<ConsumerSpec>(Consumers).map((c) => [c.durable, c]));
    for (const object of objects.values())
      for (const { metadata } of object.spec.triggers) {
        const consumer = byDurable.get(metadata.consumer);
        expect(consumer).toBeDefined();
        expect(metadata.stream).toBe(consumer!.stream.name);
        expect(metadata.lagThreshold).toBe(String(consumer!.scaleAtLag));
        expect(consumer!.owner).toBe(object.metadata.name);
      }
  });

  it('exist only for services with a consumer to scale on (no patrol, no retrieval)', () => {
    expect([...objects.keys()].sort()).toEqual([
      'compactor.scaled-object.yaml',
      'embedder.scaled-object.yaml',
      'ingest.scaled-object.yaml',
    ]);
  });
});

describe('renderEndpointPatches', () => {
  it('points every trigger of every ScaledObject at the endpoint', () => {
    const patches = parse(`patches:\n${renderEndpointPatches('nats-headless:8222')}`) as {
      patches: Array<{ target: { name: string }; patch: string }>;
    };
    const patched = patches.patches.flatMap(({ target, patch }) =>
      (parse(patch) as Array<{ path: string; value: string }>).map((op) => {
        expect(op.value).toBe('nats-headless:8222');
        return `${target.name}${op.path}`;
      }),
    );
    const triggers = [...renderScaledObjects()].flatMap(([, text]) => {
      const object = parse(text) as ScaledObject;
      return object.spec.triggers.map(
        (_, i) => `${object.metadata.name}/spec/triggers/${i}/metadata/natsServerMonitoringEndpoint`,
      );
    });
    expect(patched.sort()).toEqual(triggers.sort());
  });
});

describe('withScalingResources', () => {
  it('replaces the scaling/ resources where the first stood and keeps the rest', () => {
    const kustomization = [
      'resources:',
      '  - a.yaml',
      '  - scaling/old.yaml',
      '  - b.yaml',
      '  - scaling/gone.yaml',
      '',
    ].join('\n');
    expect(withScalingResources(kustomization, ['x.yaml', 'y.yaml'])).toBe(
      ['resources:', '  - a.yaml', '  - scaling/x.yaml', '  - scaling/y.yaml', '  - b.yaml', ''].join('\n'),
    );
  });
});
