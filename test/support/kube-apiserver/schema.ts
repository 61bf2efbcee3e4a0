// Structural-schema handling of custom resources, as apiextensions-apiserver does it: unknown fields
// are pruned (and reported, for fieldValidation), nulls in non-nullable fields dropped, then types,
// required fields, enums and formats are validated. metadata is ObjectMeta and handled elsewhere.
import { fieldError, type FieldError, type Obj } from './errors.js';

export interface Schema {
  type?: string;
  format?: string;
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  items?: Schema;
  required?: string[];
  enum?: unknown[];
  nullable?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
}

export interface SchemaResult {
  /** Paths of the fields that were dropped as unknown. */
  pruned: string[];
  errors: FieldError[];
}

const ROOT_FIELDS = new Set(['apiVersion', 'kind', 'metadata']);
// strfmt's date-time accepts RFC 3339 with or without fractions, and a few looser layouts.
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?$/;

const isPlainObject = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Prunes `object` in place and validates what remains. */
export function pruneAndValidate(schema: Schema, object: Obj): SchemaResult {
  const result: SchemaResult = { pruned: [], errors: [] };
  visitObject(schema, object, '', result, ROOT_FIELDS);
  return result;
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

function visitObject(schema: Schema, value: Obj, path: string, result: SchemaResult, keep = new Set<string>()): void {
  const preserve = schema['x-kubernetes-preserve-unknown-fields'] === true;
  for (const key of Object.keys(value)) {
    if (keep.has(key)) continue;
    const child = schema.properties?.[key] ?? (typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined);
    if (!child) {
      if (!preserve && schema.additionalProperties !== true) {
        delete value[key];
        result.pruned.push(join(path, key));
      }
      continue;
    }
    if (value[key] === null && !child.nullable) {
      delete value[key];
      continue;
    }
    visit(child, value[key], join(path, key), result);
  }
  for (const key of schema.required ?? []) if (!(key in value)) result.errors.push(fieldError.required(join(path, key)));
}

function visit(schema: Schema, value: unknown, path: string, result: SchemaResult): void {
  if (value === null) return;
  if (schema['x-kubernetes-int-or-string'] && (typeof value === 'string' || Number.isInteger(value))) return;
  if (!hasType(schema.type, value)) {
    result.errors.push(fieldError.typeInvalid(path, value, `${path} in body must be of type ${schema.type}: ${JSON.stringify(typeName(value))}`));
    return;
  }
  if (schema.enum && !schema.enum.some((allowed) => allowed === value)) {
    result.errors.push(fieldError.notSupported(path, value, schema.enum));
  }
  if (schema.format === 'date-time' && typeof value === 'string' && !DATE_TIME.test(value)) {
    result.errors.push(fieldError.invalid(path, value, `${path} in body must be of type date-time: ${JSON.stringify(value)}`));
  }
  if (isPlainObject(value)) visitObject(schema, value, path, result);
  if (Array.isArray(value) && schema.items) value.forEach((item, index) => visit(schema.items!, item, `${path}[${index}]`, result));
}

function hasType(type: string | undefined, value: unknown): boolean {
  switch (type) {
    case undefined:
      return true;
    case 'object':
      return isPlainObject(value);
    case 'array':
      return Array.isArray(value);
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    default:
      return false;
  }
}

function typeName(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (isPlainObject(value)) return 'object';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}
