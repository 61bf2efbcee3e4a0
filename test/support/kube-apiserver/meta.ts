// ObjectMeta: decoding (unknown fields dropped, maps must hold strings) and the generic validation
// apimachinery applies to every object: name rules, label and annotation syntax.
import { randomBytes } from 'node:crypto';
import { fieldError, type FieldError, type Obj } from './errors.js';
import type { ResourceType } from './resources.js';

const KNOWN_FIELDS = [
  'name',
  'generateName',
  'namespace',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
];
/** Set by the server only; a client's values are replaced on create and update. */
export const SYSTEM_FIELDS = ['uid', 'creationTimestamp', 'generation', 'deletionTimestamp', 'deletionGracePeriodSeconds'] as const;

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const SUBDOMAIN_MESSAGE =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_MESSAGE =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const QUALIFIED_NAME_MESSAGE =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE_MESSAGE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const ANNOTATIONS_MAX_BYTES = 256 * 1024;

/** metadata as the ObjectMeta struct decodes it; throws a plain Error where Go's decoder would. */
export function decodeMeta(metadata: unknown): Obj {
  if (metadata === undefined || metadata === null) return {};
  if (typeof metadata !== 'object' || Array.isArray(metadata)) throw new Error('json: cannot unmarshal metadata: not an object');
  const out: Obj = {};
  for (const field of KNOWN_FIELDS) if ((metadata as Obj)[field] != null) out[field] = (metadata as Obj)[field];
  for (const field of ['labels', 'annotations'] as const) {
    if (out[field] === undefined) continue;
    if (typeof out[field] !== 'object' || Array.isArray(out[field])) throw new Error(`json: cannot unmarshal into Go struct field ObjectMeta.metadata.${field} of type map[string]string`);
    for (const [key, value] of Object.entries(out[field])) {
      if (typeof value !== 'string') throw new Error(`json: cannot unmarshal ${typeof value} into Go struct field ObjectMeta.metadata.${field} of type string (key ${key})`);
    }
    if (Object.keys(out[field]).length === 0) delete out[field];
  }
  return out;
}

// Same alphabet as apimachinery's names.SimpleNameGenerator.
const NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
export function generateName(prefix: string): string {
  return prefix + [...randomBytes(5)].map((byte) => NAME_ALPHABET[byte % NAME_ALPHABET.length]).join('');
}

export function validateMeta(type: ResourceType, metadata: Obj): FieldError[] {
  const errors: FieldError[] = [];
  const name: string = metadata.name ?? '';
  if (!name) errors.push(fieldError.required('metadata.name'));
  else errors.push(...validateName(type, name));
  for (const [key, value] of Object.entries<string>(metadata.labels ?? {})) {
    errors.push(...validateQualifiedName(key, 'metadata.labels'));
    if (value.length > 63) errors.push(fieldError.invalid('metadata.labels', value, 'must be no more than 63 characters'));
    else if (!LABEL_VALUE.test(value)) errors.push(fieldError.invalid('metadata.labels', value, LABEL_VALUE_MESSAGE));
  }
  let annotationBytes = 0;
  for (const [key, value] of Object.entries<string>(metadata.annotations ?? {})) {
    errors.push(...validateQualifiedName(key.toLowerCase(), 'metadata.annotations'));
    annotationBytes += Buffer.byteLength(key) + Buffer.byteLength(value);
  }
  if (annotationBytes > ANNOTATIONS_MAX_BYTES) errors.push({ type: 'FieldValueTooLong', field: 'metadata.annotations', body: `Too long: must have at most ${ANNOTATIONS_MAX_BYTES} bytes` });
  return errors;
}

function validateName(type: ResourceType, name: string): FieldError[] {
  switch (type.nameRule) {
    case 'segment':
      if (name === '.' || name === '..') return [fieldError.invalid('metadata.name', name, `may not be '${name}'`)];
      if (/[/%]/.test(name)) return [fieldError.invalid('metadata.name', name, "may not contain '/' or '%'")];
      return [];
    case 'label':
      if (name.length > 63) return [fieldError.invalid('metadata.name', name, 'must be no more than 63 characters')];
      return DNS_LABEL.test(name) ? [] : [fieldError.invalid('metadata.name', name, LABEL_MESSAGE)];
    case 'subdomain':
      if (name.length > 253) return [fieldError.invalid('metadata.name', name, 'must be no more than 253 characters')];
      return DNS_SUBDOMAIN.test(name) ? [] : [fieldError.invalid('metadata.name', name, SUBDOMAIN_MESSAGE)];
  }
}

function validateQualifiedName(key: string, field: string): FieldError[] {
  const slash = key.indexOf('/');
  const [prefix, name] = slash < 0 ? ['', key] : [key.slice(0, slash), key.slice(slash + 1)];
  if (slash >= 0 && (!prefix || prefix.length > 253 || !DNS_SUBDOMAIN.test(prefix))) {
    return [fieldError.invalid(field, key, `prefix part ${SUBDOMAIN_MESSAGE}`)];
  }
  if (!name) return [fieldError.invalid(field, key, 'name part must be non-empty')];
  if (name.length > 63) return [fieldError.invalid(field, key, 'name part must be no more than 63 characters')];
  return QUALIFIED_NAME.test(name) ? [] : [fieldError.invalid(field, key, QUALIFIED_NAME_MESSAGE)];
}
