// Checking a value against a schema of a served OpenAPI 3.1 document (ajv, JSON Schema 2020-12):
// the fuzz drill's answers and the webhooks the test receivers accept.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { readFileSync } from 'node:fs';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

/** `#/components/schemas/X` as `#/$defs/X`, so one schema carries every definition it refers to. */
const rewriteRefs = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      k === '$ref' && typeof v === 'string' ? v.replace('#/components/schemas/', '#/$defs/') : rewriteRefs(v),
    ]),
  );
};

export function schemaValidator(doc: any): (schema: unknown) => ValidateFunction {
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  addFormats(ajv);
  const defs = rewriteRefs(doc.components?.schemas ?? {});
  const compiled = new Map<unknown, ValidateFunction>();
  return (schema) => {
    let validate = compiled.get(schema);
    if (!validate) {
      validate = ajv.compile({ ...(rewriteRefs(schema) as object), $defs: defs });
      compiled.set(schema, validate);
    }
    return validate;
  };
}

export const errorsOf = (v: ValidateFunction): string =>
  (v.errors ?? [])
    .slice(0, 3)
    .map((e) => `${e.instancePath || '/'} ${e.message}`)
    .join('; ');

const checkedInDocument = (file: string): any => JSON.parse(readFileSync(new URL(`../../../openapi/${file}`, import.meta.url), 'utf8'));

/** Each webhook type either document describes, with the validator of its body. */
const webhookBodies = new Map<string, ValidateFunction>();
for (const doc of [checkedInDocument('agent-api.json'), checkedInDocument('voice-api.json')]) {
  const validator = schemaValidator(doc);
  for (const [type, item] of Object.entries<any>(doc.webhooks ?? {})) {
    webhookBodies.set(type, validator(item.post.requestBody.content['application/json'].schema));
  }
}

/** Documented webhooks a receiver accepted whose body the document does not describe; hooks.ts fails the run on any. */
export const undocumentedWebhooks: string[] = [];

/** Records a body of a documented webhook type that does not match its schema (other types are tests' own). */
export function checkDocumentedWebhook(event: { type?: unknown; data?: { key?: unknown } }): void {
  // The delivery tests write events of their own into the outbox, marked by `data.key`; the product's never carry one.
  if (event.data?.key !== undefined) return;
  const type = String(event.type);
  const validate = webhookBodies.get(type);
  if (validate && !validate(event)) undocumentedWebhooks.push(`${type}: ${errorsOf(validate)}`);
}
