import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parse } from 'yaml';
import { containersOf, kustomizationDirs, renderKustomization, type Manifest } from './kustomize';

const ROOT = resolve(__dirname, '../..');
const K8S = join(ROOT, 'deploy/k8s');

interface Verdict {
  /** The package whose schema checked the document; null when none knows its kind. */
  readonly schema: string | null;
  readonly error: string | null;
}

/** Validates documents against the Kubernetes (and KEDA) schemas in node_modules: no cluster, no network. */
function validate(docs: unknown[]): Verdict[] {
  const out = execFileSync(process.execPath, [join(__dirname, 'kubernetes-schemas.mjs')], {
    cwd: ROOT,
    input: JSON.stringify(docs),
    encoding: 'utf8',
  });
  return JSON.parse(out) as Verdict[];
}

const idOf = (m: Manifest) => `${m.kind}/${m.metadata.name}`;
const WORKLOADS = new Set(['Deployment', 'StatefulSet']);

interface Probe {
  httpGet?: { path?: string };
}
interface Resources {
  requests?: Record<string, string>;
  limits?: Record<string, string>;
}

describe('Kubernetes manifests (deploy/k8s)', () => {
  const dirs = kustomizationDirs(K8S).map((dir) => relative(ROOT, dir));
  const rendered = new Map(dirs.map((dir) => [dir, renderKustomization(join(ROOT, dir))]));

  it('finds the base and the example overlay', () => {
    expect(dirs).toEqual(expect.arrayContaining(['deploy/k8s/base', 'deploy/k8s/overlays/example']));
  });

  describe.each(dirs)('%s', (dir) => {
    const objects = rendered.get(dir) ?? [];

    it('is valid against the Kubernetes and KEDA schemas; only the CNPG Cluster has none installed', () => {
      const verdicts = validate(objects);
      const errors = verdicts.flatMap((v, i) => (v.error ? [`${idOf(objects[i]!)}: ${v.error}`] : []));
      expect(errors).toEqual([]);
      const unchecked = verdicts.flatMap((v, i) =>
        v.schema ? [] : [`${objects[i]!.apiVersion} ${objects[i]!.kind}`],
      );
      expect(new Set(unchecked)).toEqual(
        new Set(objects.some((o) => o.kind === 'Cluster') ? ['postgresql.cnpg.io/v1 Cluster'] : []),
      );
    });

    it('gives every container CPU and memory requests and limits', () => {
      const missing = objects.flatMap((o) =>
        containersOf(o).flatMap((c) => {
          const r = (c.resources ?? {}) as Resources;
          const complete = ['requests', 'limits'].every((k) => {
            const set = r[k as keyof Resources];
            return set?.cpu && set?.memory;
          });
          return complete ? [] : [`${idOf(o)} ${String(c.name)}`];
        }),
      );
      expect(missing).toEqual([]);
    });

    it('probes every long-running container: startup and liveness on /health/live, readiness on /health/ready', () => {
      const wrong = objects
        .filter((o) => WORKLOADS.has(o.kind))
        .flatMap((o) =>
          containersOf(o).flatMap((c) => {
            const path = (p: unknown) => (p as Probe | undefined)?.httpGet?.path;
            const ok =
              path(c.startupProbe) === '/health/live' &&
              path(c.livenessProbe) === '/health/live' &&
              path(c.readinessProbe) === '/health/ready';
            return ok ? [] : [`${idOf(o)} ${String(c.name)}`];
          }),
        );
      expect(wrong).toEqual([]);
    });

    it('covers every Deployment and StatefulSet with a PodDisruptionBudget of maxUnavailable 1', () => {
      const budgets = objects.filter((o) => o.kind === 'PodDisruptionBudget');
      const uncovered = objects
        .filter((o) => WORKLOADS.has(o.kind))
        .filter((o) => {
          const labels = (o.spec as { template: { metadata: { labels: Record<string, string> } } }).template
            .metadata.labels;
          return !budgets.some((b) => {
            const spec = b.spec as {
              maxUnavailable?: number;
              selector: { matchLabels: Record<string, string> };
            };
            const selects = Object.entries(spec.selector.matchLabels).every(([k, v]) => labels[k] === v);
            return selects && spec.maxUnavailable === 1;
          });
        });
      expect(uncovered.map(idOf)).toEqual([]);
    });
  });

  describe('the example overlay', () => {
    const objects = rendered.get('deploy/k8s/overlays/example') ?? [];
    const byId = new Map(objects.map((o) => [idOf(o), o]));
    const cluster = byId.get('Cluster/engram-postgres') as Manifest & { spec: CnpgClusterSpec };

    it('provides every ConfigMap and Secret the pods read', () => {
      const missing = objects.flatMap((o) =>
        containersOf(o).flatMap((c) =>
          (
            (c.envFrom ?? []) as Array<{ configMapRef?: { name: string }; secretRef?: { name: string } }>
          ).flatMap((ref) => {
            const id = ref.configMapRef
              ? `ConfigMap/${ref.configMapRef.name}`
              : `Secret/${ref.secretRef?.name}`;
            return byId.has(id) ? [] : [`${idOf(o)} → ${id}`];
          }),
        ),
      );
      expect(missing).toEqual([]);
    });

    it('provides every Secret key the pods read one by one (each service its NATS password)', () => {
      type EnvVar = { valueFrom?: { secretKeyRef?: { name: string; key: string } } };
      const missing = objects.flatMap((o) =>
        containersOf(o).flatMap((c) =>
          ((c.env ?? []) as EnvVar[]).flatMap(({ valueFrom }) => {
            const ref = valueFrom?.secretKeyRef;
            if (!ref) return [];
            const secret = byId.get(`Secret/${ref.name}`) as
              { stringData?: Record<string, string> } | undefined;
            return secret?.stringData?.[ref.key] ? [] : [`${idOf(o)} → Secret/${ref.name} ${ref.key}`];
          }),
        ),
      );
      expect(missing).toEqual([]);
    });

    it('runs Postgres as a 3-instance CloudNativePG Cluster with pgvector and the extensions', () => {
      expect(cluster.spec.instances).toBe(3);
      // CNPG reads the major version from the tag; "standard" images carry pgvector.
      expect(cluster.spec.imageName).toMatch(
        /^ghcr\.io\/cloudnative-pg\/postgresql:(1[5-9]|[2-9]\d)[.-].*standard/,
      );
      expect(cluster.spec.bootstrap.initdb.postInitApplicationSQL).toEqual(
        ['vector', 'btree_gin', 'pg_trgm'].map((ext) => `CREATE EXTENSION IF NOT EXISTS ${ext}`),
      );
      expect(cluster.spec.enablePDB).toBe(true);
      expect(cluster.spec.storage.size).toMatch(/^\d+Gi$/);
      for (const k of ['requests', 'limits'] as const) {
        expect(cluster.spec.resources[k]).toEqual({ cpu: expect.any(String), memory: expect.any(String) });
      }
    });

    it("points the database URLs at the Cluster's primary, with the passwords of its Secrets", () => {
      const secret = (name: string) =>
        (byId.get(`Secret/${name}`)?.stringData ?? {}) as Record<string, string>;
      const primary = `${cluster.metadata.name}-rw.${cluster.metadata.namespace}.svc.cluster.local`;
      const urls = { ...secret('engram-database'), ...secret('engram-database-admin') };
      for (const [name, url] of Object.entries(urls))
        expect([name, new URL(url).hostname]).toEqual([name, primary]);
      const { initdb } = cluster.spec.bootstrap;
      const owner = new URL(urls.DATABASE_OWNER_URL!);
      expect([owner.username, owner.pathname]).toEqual([initdb.owner, `/${initdb.database}`]);
      expect(secret(initdb.secret.name)).toEqual({ username: owner.username, password: owner.password });
      const admin = new URL(urls.ENGRAM_PG_ADMIN_URL!);
      expect(secret(cluster.spec.superuserSecret.name)).toEqual({
        username: admin.username,
        password: admin.password,
      });
    });
  });

  describe('the NATS Helm values (deploy/k8s/nats/values.yaml; the chart ships no values schema)', () => {
    const values = parse(readFileSync(join(K8S, 'nats/values.yaml'), 'utf8')) as NatsValues;

    it('ask for a 3-node JetStream cluster on persistent volumes, with the chart’s PodDisruptionBudget', () => {
      expect(values.config.cluster).toEqual({ enabled: true, replicas: 3 });
      expect(values.config.jetstream.enabled).toBe(true);
      expect(values.config.jetstream.fileStore.pvc.size).toMatch(/^\d+Gi$/);
      expect(values.podDisruptionBudget.enabled).toBe(true);
    });

    it('merge valid resources into every container of the chart', () => {
      const merges = {
        nats: values.container.merge,
        reloader: values.reloader.merge,
        'nats-box': values.natsBox.container.merge,
      };
      const pod = (name: string, merge: Record<string, unknown>) => ({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name },
        spec: { containers: [{ name, image: 'nats', ...merge }] },
      });
      const docs = Object.entries(merges).map(([name, merge]) => pod(name, merge));
      expect(validate(docs)).toEqual(docs.map(() => ({ schema: 'kubernetes-models', error: null })));
      for (const merge of Object.values(merges)) {
        expect(merge.resources).toEqual({
          requests: { cpu: expect.any(String), memory: expect.any(String) },
          limits: { cpu: expect.any(String), memory: expect.any(String) },
        });
      }
    });
  });

  it('rejects broken documents (the check can fail)', () => {
    const deployment = rendered.get('deploy/k8s/base')!.find((o) => o.kind === 'Deployment')!;
    const scaled = rendered.get('deploy/k8s/base')!.find((o) => o.kind === 'ScaledObject')!;
    const broken = [
      { ...deployment, spec: { ...(deployment.spec as object), replicas: 'two' } },
      { ...deployment, spec: { ...(deployment.spec as object), selector: undefined } },
      { ...scaled, spec: { ...(scaled.spec as object), minReplicaCount: '1' } },
      {
        apiVersion: 'policy/v1',
        kind: 'PodDisruptionBudget',
        metadata: { name: 'x' },
        spec: { maxUnavailable: [] },
      },
    ];
    const verdicts = validate(broken);
    expect(verdicts.map((v) => v.schema)).toEqual([
      'kubernetes-models',
      'kubernetes-models',
      '@kubernetes-models/keda',
      'kubernetes-models',
    ]);
    for (const v of verdicts) expect(v.error).toEqual(expect.any(String));
  });

  it('refuses to render a patch whose path does not exist, as kustomize does', () => {
    expect(() => renderKustomization(join(__dirname, 'fixtures/kustomize-bad-patch'))).toThrow(
      /does not exist/,
    );
  });
});

interface CnpgClusterSpec {
  instances: number;
  imageName: string;
  enablePDB: boolean;
  superuserSecret: { name: string };
  bootstrap: {
    initdb: { database: string; owner: string; secret: { name: string }; postInitApplicationSQL: string[] };
  };
  storage: { size: string };
  resources: Resources;
}

interface NatsValues {
  config: {
    cluster: { enabled: boolean; replicas: number };
    jetstream: { enabled: boolean; fileStore: { pvc: { size: string } } };
  };
  container: { merge: Record<string, unknown> };
  reloader: { merge: Record<string, unknown> };
  natsBox: { container: { merge: Record<string, unknown> } };
  podDisruptionBudget: { enabled: boolean };
}
