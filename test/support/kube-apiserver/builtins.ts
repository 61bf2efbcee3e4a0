// The built-in resources the product and kubectl touch: namespaces, core and events.k8s.io Events
// (one storage, two shapes), coordination.k8s.io Leases, and the CRDs themselves (read-only).
// Typed fields are decoded as the Go structs do, so a Lease with a millisecond renewTime fails as
// it does on a real cluster.
import { fieldError, type FieldError, type Obj } from './errors.js';
import { createdAtColumn, metadataFields, type Column, type ResourceType } from './resources.js';
import { cellFor, jsonPathColumn } from './table.js';
import { decodeMicroTime, decodeTime } from './time.js';

const ALL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const AGE = jsonPathColumn({ name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' });

const typedDefaults: Pick<
  ResourceType,
  'statusSubresource' | 'tracksGeneration' | 'allowUnconditionalUpdate' | 'allowCreateOnUpdate' | 'returnDeletedObject' | 'unstructured' | 'nameRule' | 'shortNames' | 'categories' | 'verbs' | 'selectableFields'
> = {
  statusSubresource: false,
  tracksGeneration: false,
  allowUnconditionalUpdate: true,
  allowCreateOnUpdate: false,
  returnDeletedObject: false,
  unstructured: false,
  nameRule: 'subdomain',
  shortNames: [],
  categories: [],
  verbs: ALL_VERBS,
  selectableFields: metadataFields,
};

type Decoder = 'microtime' | 'time' | 'integer' | 'string';

/** Decodes the listed dotted paths in place; null means unset, as in Go. */
function decodeFields(object: Obj, fields: Record<string, Decoder>): void {
  for (const [path, decoder] of Object.entries(fields)) {
    const keys = path.split('.');
    const parent = keys.slice(0, -1).reduce<any>((value, key) => (value && typeof value === 'object' ? value[key] : undefined), object);
    const key = keys[keys.length - 1];
    if (!parent || typeof parent !== 'object' || parent[key] === undefined) continue;
    if (parent[key] === null) {
      delete parent[key];
      continue;
    }
    const value = parent[key];
    if (decoder === 'microtime') parent[key] = decodeMicroTime(value);
    else if (decoder === 'time') parent[key] = decodeTime(value);
    else if (decoder === 'integer' ? !Number.isInteger(value) : typeof value !== 'string') {
      throw new Error(`json: cannot unmarshal ${typeof value} into Go struct field .${path} of type ${decoder === 'integer' ? 'int32' : 'string'}`);
    }
  }
}

const namespaces: ResourceType = {
  ...typedDefaults,
  group: '',
  version: 'v1',
  plural: 'namespaces',
  singular: 'namespace',
  kind: 'Namespace',
  listKind: 'NamespaceList',
  namespaced: false,
  shortNames: ['ns'],
  verbs: ['create', 'get', 'list', 'watch'],
  storage: 'namespaces',
  nameRule: 'label',
  columns: [jsonPathColumn({ name: 'Status', type: 'string', jsonPath: '.status.phase' }), AGE],
  selectableFields: (object) => ({ 'metadata.name': object.metadata.name, 'status.phase': object.status?.phase ?? '' }),
  defaults(namespace) {
    namespace.metadata.labels = { ...namespace.metadata.labels, 'kubernetes.io/metadata.name': namespace.metadata.name };
    namespace.spec = { finalizers: ['kubernetes'], ...namespace.spec };
    namespace.status = { phase: 'Active' };
  },
};

const leases: ResourceType = {
  ...typedDefaults,
  group: 'coordination.k8s.io',
  version: 'v1',
  plural: 'leases',
  singular: 'lease',
  kind: 'Lease',
  listKind: 'LeaseList',
  namespaced: true,
  storage: 'coordination.k8s.io/leases',
  allowCreateOnUpdate: true,
  columns: [jsonPathColumn({ name: 'Holder', type: 'string', jsonPath: '.spec.holderIdentity' }), AGE],
  decode(lease) {
    decodeFields(lease, {
      'spec.holderIdentity': 'string',
      'spec.leaseDurationSeconds': 'integer',
      'spec.acquireTime': 'microtime',
      'spec.renewTime': 'microtime',
      'spec.leaseTransitions': 'integer',
    });
  },
  validate(lease) {
    const errors: FieldError[] = [];
    const { leaseDurationSeconds, leaseTransitions } = lease.spec ?? {};
    if (leaseDurationSeconds !== undefined && leaseDurationSeconds <= 0) errors.push(fieldError.invalid('spec.leaseDurationSeconds', leaseDurationSeconds, 'must be greater than 0'));
    if (leaseTransitions !== undefined && leaseTransitions < 0) errors.push(fieldError.invalid('spec.leaseTransitions', leaseTransitions, 'must be greater than or equal to 0'));
    return errors;
  },
};

/** core/v1 Event field → events.k8s.io/v1 Event field. */
const EVENT_RENAMES: [string, string][] = [
  ['involvedObject', 'regarding'],
  ['message', 'note'],
  ['source', 'deprecatedSource'],
  ['firstTimestamp', 'deprecatedFirstTimestamp'],
  ['lastTimestamp', 'deprecatedLastTimestamp'],
  ['count', 'deprecatedCount'],
  ['reportingComponent', 'reportingController'],
];

function renamed(object: Obj, pairs: [string, string][]): Obj {
  const out: Obj = { ...object };
  for (const [from, to] of pairs) {
    delete out[from];
    if (object[from] !== undefined) out[to] = object[from];
  }
  return out;
}

/** Last Seen as the core printer computes it: series, then lastTimestamp, then eventTime. */
function lastSeen(event: Obj): unknown {
  return cellFor('date', event.series?.lastObservedTime ?? event.lastTimestamp ?? event.eventTime ?? event.deprecatedLastTimestamp);
}

const eventColumns = (regarding: string, note: string): Column[] => [
  { name: 'Last Seen', type: 'string', format: '', description: 'Time when the event was last observed.', priority: 0, cell: lastSeen },
  jsonPathColumn({ name: 'Type', type: 'string', jsonPath: '.type' }),
  jsonPathColumn({ name: 'Reason', type: 'string', jsonPath: '.reason' }),
  {
    name: 'Object',
    type: 'string',
    format: '',
    description: 'The object this event is about.',
    priority: 0,
    cell: (event) => `${String(event[regarding]?.kind ?? '').toLowerCase()}/${event[regarding]?.name ?? ''}`,
  },
  jsonPathColumn({ name: 'Message', type: 'string', jsonPath: `.${note}` }),
];

/** ValidateEventCreate's legacy rules, which every request version gets (core field names). */
function validateLegacyEvent(event: Obj): FieldError[] {
  const errors: FieldError[] = [];
  const namespace = event.metadata.namespace ?? '';
  const involved = event.involvedObject?.namespace ?? '';
  const mismatch = () => fieldError.invalid('involvedObject.namespace', involved, 'does not match event.namespace');
  if (!event.eventTime) {
    if (involved ? namespace !== involved : namespace !== '' && namespace !== 'default') errors.push(mismatch());
    return errors;
  }
  if (!involved && namespace !== 'default' && namespace !== 'kube-system') errors.push(mismatch());
  for (const field of ['reportingComponent', 'reportingInstance', 'action', 'reason']) if (!event[field]) errors.push(fieldError.required(field));
  return errors;
}

const EVENT_TIMES: Record<string, Decoder> = { eventTime: 'microtime', 'series.lastObservedTime': 'microtime', 'series.count': 'integer' };

const coreEvents: ResourceType = {
  ...typedDefaults,
  group: '',
  version: 'v1',
  plural: 'events',
  singular: 'event',
  kind: 'Event',
  listKind: 'EventList',
  namespaced: true,
  shortNames: ['ev'],
  storage: 'events',
  allowCreateOnUpdate: true,
  nameRule: 'segment',
  columns: eventColumns('involvedObject', 'message'),
  selectableFields: (event) => ({
    ...metadataFields(event),
    ...Object.fromEntries(['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'].map((field) => [`involvedObject.${field}`, event.involvedObject?.[field] ?? ''])),
    reason: event.reason ?? '',
    reportingComponent: event.reportingComponent ?? '',
    source: event.source?.component ?? '',
    type: event.type ?? '',
  }),
  decode: (event) => decodeFields(event, { ...EVENT_TIMES, firstTimestamp: 'time', lastTimestamp: 'time', count: 'integer' }),
  validate: validateLegacyEvent,
};

const eventsV1: ResourceType = {
  ...coreEvents,
  group: 'events.k8s.io',
  shortNames: [],
  columns: eventColumns('regarding', 'note'),
  selectableFields: (event) => coreEvents.selectableFields(eventsV1.toStorage!(event)),
  decode: (event) => decodeFields(event, { ...EVENT_TIMES, deprecatedFirstTimestamp: 'time', deprecatedLastTimestamp: 'time', deprecatedCount: 'integer' }),
  // events.k8s.io/v1 creates get the strict rules on top of the legacy ones.
  validate(event, current) {
    const errors = validateLegacyEvent(eventsV1.toStorage!(event)).map((error) => ({ ...error, field: error.field.replace('reportingComponent', 'reportingController') }));
    if (current) return errors;
    if (!event.eventTime) errors.push(fieldError.required('eventTime'));
    if (event.type !== 'Normal' && event.type !== 'Warning') errors.push(fieldError.invalid('type', '', `has invalid value: ${event.type ?? ''}`));
    for (const field of ['deprecatedFirstTimestamp', 'deprecatedLastTimestamp', 'deprecatedCount', 'deprecatedSource']) {
      if (event[field] !== undefined) errors.push(fieldError.invalid(field, '', 'needs to be unset'));
    }
    if (String(event.note ?? '').length > 1024) errors.push({ type: 'FieldValueTooLong', field: 'note', body: 'Too long: may not be more than 1024 bytes' });
    return errors;
  },
  toStorage: (event) => ({ ...renamed(event, EVENT_RENAMES.map(([core, v1]) => [v1, core])), apiVersion: 'v1' }),
  fromStorage: (event) => renamed(event, EVENT_RENAMES),
};

const customResourceDefinitions: ResourceType = {
  ...typedDefaults,
  group: 'apiextensions.k8s.io',
  version: 'v1',
  plural: 'customresourcedefinitions',
  singular: 'customresourcedefinition',
  kind: 'CustomResourceDefinition',
  listKind: 'CustomResourceDefinitionList',
  namespaced: false,
  shortNames: ['crd', 'crds'],
  categories: ['api-extensions'],
  verbs: ['get', 'list', 'watch'],
  storage: 'apiextensions.k8s.io/customresourcedefinitions',
  columns: [createdAtColumn],
};

export const BUILTIN_TYPES: ResourceType[] = [namespaces, coreEvents, eventsV1, leases, customResourceDefinitions];
export const NAMESPACES = namespaces;
export const CRDS = customResourceDefinitions;
