// meta.k8s.io Table responses (what `kubectl get` asks for with Accept: ...;as=Table): Name first,
// then the type's columns, rows of cells and PartialObjectMetadata row objects — the apiextensions
// tableconvertor for custom resources, where `date` cells become ages and missing values null.
import { statusError, type Obj } from './errors.js';
import type { Column, ResourceType } from './resources.js';
import { ageOf } from './time.js';

export interface TableOptions {
  /** meta.k8s.io/v1 or meta.k8s.io/v1beta1, as negotiated. */
  apiVersion: string;
  includeObject: string;
  noHeaders: boolean;
}

const NAME_COLUMN = {
  name: 'Name',
  type: 'string',
  format: 'name',
  description:
    'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names',
  priority: 0,
};

/** Simple JSONPath as printer columns use it: .a.b, .a['b.c'], .a[0], .a[?(@.type=="Ready")].b */
export function evaluateJsonPath(path: string, object: unknown): unknown {
  const tokens = path.match(/\.[^.[\]]+|\[\d+\]|\['[^']*'\]|\["[^"]*"\]|\[\?\(@\.[^=!]+==["'][^"']*["']\)\]/g) ?? [];
  if (tokens.join('') !== path.replace(/^\{|\}$/g, '')) throw new Error(`unsupported JSONPath ${path}`);
  let value: any = object;
  for (const token of tokens) {
    if (value === undefined || value === null) return undefined;
    let match: RegExpExecArray | null;
    if ((match = /^\[\?\(@\.([^=!]+)==["']([^"']*)["']\)\]$/.exec(token))) {
      const [, field, expected] = match;
      value = Array.isArray(value) ? value.find((item) => String(evaluateJsonPath(`.${field}`, item)) === expected) : undefined;
    } else if ((match = /^\[(\d+)\]$/.exec(token))) value = Array.isArray(value) ? value[Number(match[1])] : undefined;
    else if ((match = /^\[['"](.*)['"]\]$/.exec(token))) value = value[match[1]];
    else value = value[token.slice(1)];
  }
  return value;
}

/** tableconvertor.cellForJSONValue, plus the string column printing of the jsonpath printer. */
export function cellFor(type: string, value: unknown): unknown {
  if (value === undefined || value === null) return null;
  switch (type) {
    case 'string':
      return typeof value === 'object' ? JSON.stringify(value) : String(value);
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'date':
      return typeof value === 'string' ? ageOf(value) : null;
    default:
      return null;
  }
}

/** A column read from an object by JSONPath, as in a CRD's additionalPrinterColumns. */
export function jsonPathColumn(definition: { name: string; type: string; format?: string; description?: string; priority?: number; jsonPath: string }): Column {
  evaluateJsonPath(definition.jsonPath, {});
  return {
    name: definition.name,
    type: definition.type,
    format: definition.format ?? '',
    description: definition.description ?? `Custom resource definition column (in JSONPath format): ${definition.jsonPath}`,
    priority: definition.priority ?? 0,
    cell: (object) => cellFor(definition.type, evaluateJsonPath(definition.jsonPath, object)),
  };
}

function rowObject(object: Obj, options: TableOptions): Obj | null {
  switch (options.includeObject) {
    case 'Object':
      return object;
    case 'None':
      return null;
    case 'Metadata':
    case '':
      return { kind: 'PartialObjectMetadata', apiVersion: options.apiVersion, metadata: object.metadata };
    default:
      throw statusError.badRequest(`unrecognized includeObject value: "${options.includeObject}"`);
  }
}

/** A Table of `objects`; `listMeta` is the list's metadata, or undefined for a single object. */
export function toTable(type: ResourceType, objects: Obj[], options: TableOptions, listMeta?: Obj): Obj {
  return {
    kind: 'Table',
    apiVersion: options.apiVersion,
    metadata: listMeta ?? { resourceVersion: objects[0]?.metadata.resourceVersion },
    columnDefinitions: options.noHeaders ? null : [NAME_COLUMN, ...type.columns.map(({ cell: _cell, ...definition }) => definition)],
    rows: objects.map((object) => ({
      cells: [object.metadata.name, ...type.columns.map((column) => column.cell(object))],
      object: rowObject(object, options),
    })),
  };
}
