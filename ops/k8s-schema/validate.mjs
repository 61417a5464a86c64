// Validates every object of the multi-document YAML on standard input against its schema: the Kubernetes API's
// (kubernetes-models, generated from the API's OpenAPI document) and, for monitoring.coreos.com, the Prometheus
// Operator's CRDs (@kubernetes-models/prometheus-operator). An object of a kind neither knows fails: nothing is
// skipped silently. Prints one line per object; exits 1 on any failure.
//   kubectl kustomize k8s/overlays/mod-inventory | node ops/k8s-schema/validate.mjs <label>
import { parseAllDocuments } from "yaml";

const label = process.argv[2] ?? "stdin";
let input = "";
for await (const chunk of process.stdin) input += chunk;

function modulePath(apiVersion, kind) {
  const [group, version] = apiVersion.includes("/") ? apiVersion.split("/") : [null, apiVersion];
  if (group === "monitoring.coreos.com") {
    return `@kubernetes-models/prometheus-operator/${group}/${version}/${kind}`;
  }
  return group === null ? `kubernetes-models/${version}/${kind}` : `kubernetes-models/${group}/${version}/${kind}`;
}

let failed = 0;
let count = 0;
for (const document of parseAllDocuments(input)) {
  const object = document.toJS();
  if (object === null) continue;
  count++;
  const name = `${label}: ${object.apiVersion} ${object.kind} ${object.metadata?.name}`;
  try {
    const models = await import(modulePath(object.apiVersion, object.kind));
    const Model = models[object.kind];
    new Model(object).validate();
    console.log(`valid: ${name}`);
  } catch (error) {
    failed++;
    console.log(`INVALID: ${name}: ${error.message}`);
  }
}
if (count === 0) {
  console.log(`INVALID: ${label}: no objects`);
  failed++;
}
process.exit(failed === 0 ? 0 : 1);
