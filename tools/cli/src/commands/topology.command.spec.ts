import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { ENGRAM_USERS, natsPasswordVariable, RPC_PARTITIONS, SERVICE_NAMES } from '@engram/contracts';
import { NATS_AUTH_CONFIG, NATS_CONFIG, NATS_SECRET } from '../topology/nats-config';
import { scalingConsumers } from '../topology/scaled-objects';
import { topologyArtifacts, withBlock } from './topology.command';

const ROOT = resolve(__dirname, '../../../..');

/** What the topology generates is what is checked in: a change to topology.ts without `npm run docs:topology` fails here. */
describe('what the topology generates', () => {
  const artifacts = [...topologyArtifacts(ROOT)];

  it.each(artifacts.filter(([, content]) => content !== null))(
    '%s is current (run `npm run docs:topology`)',
    (path, content) => {
      expect(readFileSync(join(ROOT, path), 'utf8')).toBe(content);
    },
  );

  it('leaves no ScaledObject the topology does not generate', () => {
    expect(artifacts.filter(([path, content]) => content === null && existsSync(join(ROOT, path)))).toEqual(
      [],
    );
  });
});

describe('the Deployments in deploy/k8s/base/services', () => {
  const dir = join(ROOT, 'deploy/k8s/base/services');
  const deployments = readdirSync(dir).flatMap((file) =>
    parseAllDocuments(readFileSync(join(dir, file), 'utf8'))
      .map((doc) => doc.toJS() as { kind: string; metadata: { name: string }; spec: { replicas?: number } })
      .filter((d) => d.kind === 'Deployment'),
  );
  const scaled = new Set<string>(scalingConsumers().keys());

  it.each(deployments.map((d) => [d.metadata.name, d] as const))(
    '%s sets replicas exactly when no ScaledObject owns its count',
    (name, deployment) => {
      expect({ name, replicas: deployment.spec.replicas !== undefined }).toEqual({
        name,
        replicas: !scaled.has(name),
      });
    },
  );
});

/** The replicas of retrieval agree with the generated NATS configurations on the partitions. */
describe('the partitioned retrieval replicas', () => {
  it('in docker-compose.yml: numbered 0 … n − 1 of n, with the partitions nats-server maps', () => {
    const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8')) as {
      services: Record<
        string,
        { command?: string[]; volumes?: string[]; environment?: Record<string, string> }
      >;
    };
    const replicas = Object.entries(compose.services)
      .filter(([name]) => /^retrieval(-\d+)?$/.test(name))
      .map(([, service]) => service.environment ?? {});
    expect(replicas.map((env) => env['RPC_REPLICA']).sort()).toEqual(replicas.map((_, i) => String(i)));
    for (const env of replicas)
      expect(env).toMatchObject({
        RPC_PARTITIONS: String(RPC_PARTITIONS),
        RPC_REPLICAS: String(replicas.length),
      });
    const nats = compose.services['nats']!;
    // The generated configurations, the authenticated one unless ENGRAM_NATS_CONF names the other.
    expect(nats.volumes).toContain(`./${dirname(NATS_AUTH_CONFIG)}:/etc/nats:ro`);
    expect(dirname(NATS_CONFIG)).toBe(dirname(NATS_AUTH_CONFIG));
    expect(nats.command?.slice(0, 2)).toEqual([
      '-c',
      `/etc/nats/\${ENGRAM_NATS_CONF:-${basename(NATS_AUTH_CONFIG)}}`,
    ]);
  });

  it('in deploy/k8s: a StatefulSet whose RPC_REPLICAS is its replicas, with the partitions of the NATS values', () => {
    const [statefulSet] = parseAllDocuments(
      readFileSync(join(ROOT, 'deploy/k8s/base/services/retrieval.yaml'), 'utf8'),
    ).map(
      (doc) =>
        doc.toJS() as {
          kind: string;
          spec: {
            replicas: number;
            template: { spec: { containers: { env: { name: string; value: string }[] }[] } };
          };
        },
    );
    expect(statefulSet!.kind).toBe('StatefulSet');
    const env = Object.fromEntries(
      statefulSet!.spec.template.spec.containers[0]!.env.map(({ name, value }) => [name, value]),
    );
    expect(env).toMatchObject({
      RPC_PARTITIONS: String(RPC_PARTITIONS),
      RPC_REPLICAS: String(statefulSet!.spec.replicas),
    });
    expect(env['RPC_REPLICA']).toBeUndefined();
  });
});

/** Each service connects to NATS as its own user, with the password nats-server has for that user. */
describe('the NATS users of the services', () => {
  it('in docker-compose.yml: NATS_USER is the service, NATS_PASSWORD what nats-server has for it', () => {
    const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8')) as {
      services: Record<string, { image?: string; environment?: Record<string, string> }>;
    };
    const nats = compose.services['nats']!.environment ?? {};
    expect(Object.keys(nats).sort()).toEqual(ENGRAM_USERS.map(natsPasswordVariable).sort());
    const users = Object.values(compose.services).flatMap(({ image, environment = {} }) => {
      const service = /^engram\/([a-z-]+):/.exec(image ?? '')?.[1];
      return service
        ? [{ service, user: environment['NATS_USER'], password: environment['NATS_PASSWORD'] }]
        : [];
    });
    expect(new Set(users.map((u) => u.service))).toEqual(new Set(SERVICE_NAMES));
    for (const { service, user, password } of users)
      expect({ user, password }).toEqual({ user: service, password: nats[natsPasswordVariable(service)] });
  });

  it('in deploy/k8s: NATS_USER is the service, NATS_PASSWORD its key of the Secret the NATS values read', () => {
    type Env = { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } };
    const dir = join(ROOT, 'deploy/k8s/base/services');
    const workloads = readdirSync(dir).flatMap((file) =>
      parseAllDocuments(readFileSync(join(dir, file), 'utf8'))
        .map(
          (doc) =>
            doc.toJS() as {
              kind: string;
              metadata: { name: string };
              spec: { template: { spec: { containers: { env: Env[] }[] } } };
            },
        )
        .filter((d) => d.kind === 'Deployment' || d.kind === 'StatefulSet'),
    );
    expect(new Set(workloads.map((w) => w.metadata.name))).toEqual(new Set(SERVICE_NAMES));
    for (const workload of workloads) {
      const env = workload.spec.template.spec.containers[0]!.env;
      const service = workload.metadata.name;
      expect(env.find((e) => e.name === 'NATS_USER')?.value).toBe(service);
      expect(env.find((e) => e.name === 'NATS_PASSWORD')?.valueFrom?.secretKeyRef).toEqual({
        name: NATS_SECRET,
        key: service,
      });
    }
    const values = parse(readFileSync(join(ROOT, 'deploy/k8s/nats/values.yaml'), 'utf8')) as {
      container: { env: Record<string, { valueFrom?: { secretKeyRef?: unknown } }> };
    };
    for (const user of ENGRAM_USERS)
      expect(values.container.env[natsPasswordVariable(user)]?.valueFrom?.secretKeyRef).toEqual({
        name: NATS_SECRET,
        key: user,
      });
  });
});

describe('withBlock', () => {
  it('replaces only what stands between the markers', () => {
    const doc = [
      'before',
      '<!-- t:start (generated by `npm run docs:topology`) -->',
      'old',
      '<!-- t:end -->',
      'after',
    ].join('\n');
    expect(withBlock(doc, 't', 'new')).toBe(doc.replace('old', 'new'));
  });

  it('refuses a document without the block', () => {
    expect(() => withBlock('no markers', 't', 'new')).toThrow('no <!-- t:start');
  });
});
