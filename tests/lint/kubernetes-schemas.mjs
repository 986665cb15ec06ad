// Validates Kubernetes documents against the API's OpenAPI schemas, as bundled by the
// kubernetes-models packages (ESM only, which jest's CommonJS runtime cannot load: the spec
// runs this with node). Reads a JSON array of documents on stdin and writes, for each one,
// { schema, error }: the package whose schema it was checked against (null when no installed
// package knows its apiVersion and kind) and the first violation (null when valid).

/** Packages with schemas, in the order they are asked; an apiVersion names a module in each. */
const PACKAGES = ['kubernetes-models', '@kubernetes-models/keda'];

/** The model class for apiVersion and kind, and its package, or null. */
async function modelOf(apiVersion, kind) {
  for (const pkg of PACKAGES) {
    const group = await import(`${pkg}/${apiVersion}`).catch(() => null);
    const model = group?.[kind];
    if (typeof model === 'function' && model.apiVersion === apiVersion) return { pkg, model };
  }
  return null;
}

/** One document's verdict. */
async function check(doc) {
  const found = await modelOf(String(doc?.apiVersion), String(doc?.kind));
  if (!found) return { schema: null, error: null };
  try {
    new found.model(doc).validate();
    return { schema: found.pkg, error: null };
  } catch (err) {
    return { schema: found.pkg, error: err instanceof Error ? err.message : String(err) };
  }
}

let input = '';
for await (const chunk of process.stdin) input += chunk;
const results = [];
for (const doc of JSON.parse(input)) results.push(await check(doc));
process.stdout.write(JSON.stringify(results));
