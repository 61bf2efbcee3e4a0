// What the server knows about each resource it serves: names for discovery, REST strategy flags
// (the registry store's knobs), printer columns, and the per-type decoding and validation hooks.
import type { FieldError, Obj } from './errors.js';
import type { Schema } from './schema.js';

export interface Column {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
  /** The cell for one object; null prints as <none>. */
  cell(object: Obj): unknown;
}

export interface ResourceType {
  group: string;
  version: string;
  plural: string;
  singular: string;
  kind: string;
  listKind: string;
  namespaced: boolean;
  shortNames: string[];
  categories: string[];
  verbs: string[];
  /** Objects live under this key; core and events.k8s.io events share one. */
  storage: string;
  statusSubresource: boolean;
  /** Table columns after Name. */
  columns: Column[];
  /** metadata.generation starts at 1 and counts changes outside metadata (and status). */
  tracksGeneration: boolean;
  /** Strategy knobs of the real registry for this type. */
  allowUnconditionalUpdate: boolean;
  allowCreateOnUpdate: boolean;
  returnDeletedObject: boolean;
  /** Custom resources are unstructured: bodies must state apiVersion and kind, list items carry them. */
  unstructured: boolean;
  /** metadata.name rule: DNS subdomain (most), DNS label (namespaces), or any path segment (events). */
  nameRule: 'subdomain' | 'label' | 'segment';
  /** Field selector values this type supports (metadata.name, metadata.namespace, and more for some). */
  selectableFields(object: Obj): Record<string, string>;
  /** Structural schema (custom resources): unknown fields are pruned, the rest validated. */
  schema?: Schema;
  /** Decodes typed fields as the Go struct would (times, integers); throws a plain Error when it cannot. */
  decode?(object: Obj): void;
  /** Type-specific rules; `current` is the stored object on updates. */
  validate?(object: Obj, current?: Obj): FieldError[];
  /** Defaulting the real registry applies on every write (a namespace's phase, for one). */
  defaults?(object: Obj): void;
  /** Conversion between this version and the shared storage form. */
  toStorage?(object: Obj): Obj;
  fromStorage?(object: Obj): Obj;
}

export function apiVersionOf(type: { group: string; version: string }): string {
  return type.group ? `${type.group}/${type.version}` : type.version;
}

export function metadataFields(object: Obj): Record<string, string> {
  return { 'metadata.name': object.metadata?.name ?? '', 'metadata.namespace': object.metadata?.namespace ?? '' };
}

/** The column every type without its own printer gets (rest.NewDefaultTableConvertor). */
export const createdAtColumn: Column = {
  name: 'Created At',
  type: 'date',
  format: '',
  description: 'CreationTimestamp is a timestamp representing the server time when this object was created.',
  priority: 0,
  cell: (object) => object.metadata?.creationTimestamp ?? null,
};
