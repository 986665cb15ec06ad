import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';

/** A Kubernetes object as the manifests hold it. */
export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

interface Kustomization {
  namespace?: string;
  labels?: Array<{ pairs: Record<string, string>; includeSelectors?: boolean }>;
  resources?: string[];
  images?: Array<{ name: string; newName?: string; newTag?: string }>;
  patches?: Array<{ target: { kind: string; name: string }; patch: string }>;
}

/** What this renderer implements; a kustomization using anything else is refused, not half-rendered. */
const SUPPORTED = new Set(['apiVersion', 'kind', 'namespace', 'labels', 'resources', 'images', 'patches']);
/** Kinds without a namespace among those the manifests use. */
const CLUSTER_SCOPED = new Set(['Namespace']);

/**
 * The objects `kubectl kustomize <dir>` builds, for the subset of kustomize the manifests use:
 * resources (files and directories), namespace, labels without selectors, images, and JSON 6902
 * patches of `replace` operations. No kustomize runs offline from npm, hence this.
 */
export function renderKustomization(dir: string): Manifest[] {
  const file = join(dir, 'kustomization.yaml');
  const k = parse(readFileSync(file, 'utf8')) as Kustomization;
  const unsupported = Object.keys(k).filter((key) => !SUPPORTED.has(key));
  if (unsupported.length) throw new Error(`${file}: unsupported fields ${unsupported.join(', ')}`);
  const objects = (k.resources ?? []).flatMap((entry) => loadResource(resolve(dir, entry)));
  for (const object of objects) {
    if (k.namespace && !CLUSTER_SCOPED.has(object.kind)) object.metadata.namespace = k.namespace;
    for (const { pairs, includeSelectors } of k.labels ?? []) {
      if (includeSelectors) throw new Error(`${file}: labels with includeSelectors are not supported`);
      object.metadata.labels = { ...object.metadata.labels, ...pairs };
    }
    for (const container of containersOf(object)) container.image = newImage(container.image, k.images ?? []);
  }
  for (const { target, patch } of k.patches ?? []) {
    const matched = objects.filter((o) => o.kind === target.kind && o.metadata.name === target.name);
    if (matched.length !== 1)
      throw new Error(`${file}: patch target ${target.kind}/${target.name} matched ${matched.length}`);
    for (const op of parse(patch) as Array<{ op: string; path: string; value: unknown }>) {
      replaceAt(matched[0] as unknown as Record<string, unknown>, op, file);
    }
  }
  return objects;
}

/** A resource entry: a kustomization directory (rendered) or a YAML file of documents. */
function loadResource(path: string): Manifest[] {
  if (existsSync(path) && statSync(path).isDirectory()) return renderKustomization(path);
  return parseAllDocuments(readFileSync(path, 'utf8'))
    .map((doc) => {
      if (doc.errors.length) throw new Error(`${path}: ${doc.errors[0]?.message}`);
      return doc.toJS() as Manifest | null;
    })
    .filter((doc): doc is Manifest => doc !== null);
}

/** The containers (and init containers) of a workload's pod template, or of a Pod. */
export function containersOf(object: Manifest): Array<Record<string, unknown> & { image?: string }> {
  const spec = object.spec as { template?: { spec?: PodSpec } } & PodSpec;
  const pod = object.kind === 'Pod' ? spec : spec?.template?.spec;
  return [...(pod?.initContainers ?? []), ...(pod?.containers ?? [])];
}

interface PodSpec {
  containers?: Array<Record<string, unknown> & { image?: string }>;
  initContainers?: Array<Record<string, unknown> & { image?: string }>;
}

/** An image reference after the kustomization's `images` (matched on the name before the tag). */
function newImage(
  image: string | undefined,
  images: NonNullable<Kustomization['images']>,
): string | undefined {
  if (!image) return image;
  const [name = '', tag] = image.split(':');
  const rule = images.find((i) => i.name === name);
  if (!rule) return image;
  const newTag = rule.newTag ?? tag;
  return `${rule.newName ?? name}${newTag ? `:${newTag}` : ''}`;
}

/** Applies a JSON 6902 `replace`: like kustomize, fails when the path does not exist. */
function replaceAt(
  root: Record<string, unknown>,
  op: { op: string; path: string; value: unknown },
  file: string,
): void {
  if (op.op !== 'replace') throw new Error(`${file}: patch op ${op.op} is not supported`);
  const keys = op.path
    .split('/')
    .slice(1)
    .map((key) => key.replace(/~1/g, '/').replace(/~0/g, '~'));
  const last = keys.pop();
  let node: unknown = root;
  for (const key of keys) node = (node as Record<string, unknown> | undefined)?.[key];
  if (last === undefined || node === null || typeof node !== 'object' || !(last in node)) {
    throw new Error(`${file}: patch path ${op.path} does not exist`);
  }
  (node as Record<string, unknown>)[last] = op.value;
}

/** Every directory under `root` holding a kustomization.yaml. */
export function kustomizationDirs(root: string, found: string[] = []): string[] {
  if (existsSync(join(root, 'kustomization.yaml'))) found.push(root);
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    if (entry.isDirectory()) kustomizationDirs(join(root, entry.name), found);
  }
  return found;
}
