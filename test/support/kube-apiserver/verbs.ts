// The REST verbs over the store, following the generic registry (k8s.io/apiserver/pkg/registry/
// generic/registry) and the resource strategies: preconditions and optimistic concurrency, the
// status subresource, generation, pruning and validation, no-op writes that keep their
// resourceVersion, finalizers, dry runs, and field ownership for server-side apply.
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { parse as parseYaml } from 'yaml';
import { applyConfiguration, recordUpdate, type ManagerEntry, type Scope } from './apply.js';
import { ApiError, fieldError, statusError, type FieldError, type Obj } from './errors.js';
import { decodeMeta, generateName, SYSTEM_FIELDS, validateMeta } from './meta.js';
import { jsonPatch, mergePatch } from './patch.js';
import { apiVersionOf, type ResourceType } from './resources.js';
import { pruneAndValidate } from './schema.js';
import { fieldMatcher, labelMatcher } from './selectors.js';
import type { Store } from './store.js';
import { nowTime } from './time.js';

export interface Target {
  type: ResourceType;
  /** The request's namespace; undefined for cluster-scoped types and all-namespace lists. */
  namespace?: string;
  name?: string;
  subresource?: 'status';
}

export interface WriteOptions {
  /** fieldManager, or the User-Agent's product name as the real server derives it. */
  manager: string;
  dryRun: boolean;
  fieldValidation: 'Strict' | 'Warn' | 'Ignore';
}

export interface Outcome {
  code: number;
  body: Obj;
  /** Warning headers (unknown fields under fieldValidation=Warn). */
  warnings: string[];
}

interface WriteContext {
  target: Target;
  options: WriteOptions;
  /** Typed-field decoding fails with 400 on create/update but 422 on patch, as in the real handlers. */
  viaPatch: boolean;
  /** Ownership after an apply; other writes compute it from what they change. */
  managers?: ManagerEntry[];
}

export const PATCH_TYPES = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
};

const isPlainObject = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);

function withoutMetadata(object: Obj): Obj {
  const { metadata: _metadata, ...rest } = object;
  return rest;
}

function scopeOf(target: Target): Scope {
  if (!target.type.statusSubresource) return 'all';
  return target.subresource === 'status' ? 'status' : 'main';
}

export class Api {
  constructor(private readonly store: Store) {}

  /** A stored object as `type` shows it: converted from storage, with its apiVersion and kind. */
  present(type: ResourceType, stored: Obj): Obj {
    const { apiVersion: _apiVersion, kind: _kind, ...rest } = type.fromStorage ? type.fromStorage(stored) : stored;
    return { apiVersion: apiVersionOf(type), kind: type.kind, ...rest };
  }

  private current({ type, namespace, name }: Target): Obj | undefined {
    const stored = this.store.get(type.storage, namespace, name!);
    return stored && this.present(type, stored);
  }

  get(target: Target): Obj {
    return this.current(target) ?? failNotFound(target);
  }

  /** The objects a list or deletecollection selects, in key order. */
  private matching({ type, namespace }: Target, query: URLSearchParams): Obj[] {
    const labels = labelMatcher(query.get('labelSelector'));
    const fields = fieldMatcher(type, query.get('fieldSelector'));
    return this.store
      .list(type.storage, namespace)
      .map((stored) => this.present(type, stored))
      .filter((object) => labels(object) && fields(object));
  }

  list(target: Target, query: URLSearchParams): Obj {
    let items = this.matching(target, query);
    const metadata: Obj = { resourceVersion: String(this.store.resourceVersion) };
    const token = query.get('continue');
    if (token) {
      const after = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')).after as string;
      items = items.filter((object) => keyOf(object) > after);
    }
    const limit = Number(query.get('limit') ?? 0);
    if (limit > 0 && items.length > limit) {
      metadata.continue = Buffer.from(JSON.stringify({ after: keyOf(items[limit - 1]) })).toString('base64url');
      metadata.remainingItemCount = items.length - limit;
      items = items.slice(0, limit);
    }
    if (!target.type.unstructured) items = items.map(({ apiVersion: _apiVersion, kind: _kind, ...item }) => item);
    return { apiVersion: apiVersionOf(target.type), kind: target.type.listKind, metadata, items };
  }

  create(target: Target, body: unknown, options: WriteOptions): Outcome {
    const object = decodeBody(target, body);
    if (!object.metadata.name && object.metadata.generateName) {
      do object.metadata.name = generateName(object.metadata.generateName);
      while (this.current({ ...target, name: object.metadata.name }));
    }
    return this.commit(undefined, object, { target: { ...target, name: object.metadata.name }, options, viaPatch: false });
  }

  update(target: Target, body: unknown, options: WriteOptions): Outcome {
    const object = decodeBody(target, body);
    const current = this.current(target);
    if (!current) {
      if (!target.type.allowCreateOnUpdate || target.subresource) failNotFound(target);
      return this.create(target, { ...object, metadata: { ...object.metadata, resourceVersion: undefined } }, options);
    }
    if (!object.metadata.resourceVersion && !target.type.allowUnconditionalUpdate) {
      const error: FieldError = { type: 'FieldValueInvalid', field: 'metadata.resourceVersion', body: 'Invalid value: 0x0: must be specified for an update' };
      throw statusError.invalid({ kind: target.type.plural, group: target.type.group }, target.name!, [error]);
    }
    checkPreconditions(target, current, object.metadata);
    return this.commit(current, object, { target, options, viaPatch: false });
  }

  patch(target: Target, contentType: string, raw: string, query: URLSearchParams, options: WriteOptions): Outcome {
    const accepted = target.type.unstructured ? [PATCH_TYPES.json, PATCH_TYPES.merge, PATCH_TYPES.apply] : Object.values(PATCH_TYPES);
    if (!accepted.includes(contentType)) throw statusError.unsupportedMediaType(contentType, accepted);
    if (contentType === PATCH_TYPES.apply) return this.apply(target, raw, query, options);
    if (query.has('force')) throw statusError.badRequest('force may not be specified for non-apply patch');
    const current = this.current(target) ?? failNotFound(target);
    let patch: unknown;
    try {
      patch = JSON.parse(raw);
    } catch (error) {
      throw statusError.badRequest(`error decoding patch: ${(error as Error).message}`);
    }
    // Strategic merge patch of these types has no list merge keys to honour, so it merges like a merge patch.
    const patched = contentType === PATCH_TYPES.json ? jsonPatch(current, patch) : mergePatch(current, patch);
    if (!isPlainObject(patched)) throw statusError.badRequest('the patch must produce an object');
    const object = decodeBody(target, patched);
    checkPreconditions(target, current, object.metadata);
    return this.commit(current, object, { target, options, viaPatch: true });
  }

  private apply(target: Target, raw: string, query: URLSearchParams, options: WriteOptions): Outcome {
    if (!query.get('fieldManager')) {
      throw statusError.invalid({ kind: 'PatchOptions', group: 'meta.k8s.io' }, '', [{ type: 'FieldValueRequired', field: 'fieldManager', body: 'Required value: is required for apply patch' }]);
    }
    let parsed: unknown;
    try {
      parsed = parseYaml(raw);
    } catch (error) {
      throw statusError.badRequest(`error decoding YAML: ${(error as Error).message}`);
    }
    if (!isPlainObject(parsed) || !parsed.apiVersion || !parsed.kind) throw statusError.badRequest('invalid object type: apiVersion and kind must be set in an applied configuration');
    parsed.metadata = { name: target.name, ...parsed.metadata };
    const applied = decodeBody(target, parsed);
    const current = this.current(target);
    if (!current && target.subresource) failNotFound(target);
    if (current) checkPreconditions(target, current, applied.metadata);
    const uid = current?.metadata.uid;
    const { object, entries } = applyConfiguration(uid ? this.store.managersOf(uid) : [], current, applied, {
      manager: options.manager,
      subresource: target.subresource ?? '',
      apiVersion: apiVersionOf(target.type),
      force: query.get('force') === 'true',
      scope: scopeOf(target),
    });
    if (current) object.metadata.resourceVersion = current.metadata.resourceVersion;
    return this.commit(current, object, { target, options, viaPatch: true, managers: entries });
  }

  delete(target: Target, body: unknown, options: WriteOptions): Outcome {
    const current = this.current(target) ?? failNotFound(target);
    const preconditions = isPlainObject(body) && isPlainObject(body.preconditions) ? body.preconditions : {};
    checkPreconditions(target, current, preconditions);
    return this.remove(target.type, current, options);
  }

  deleteCollection(target: Target, query: URLSearchParams, options: WriteOptions): Outcome {
    const deleted = this.matching(target, query).map((item) => this.remove(target.type, item, options).body);
    return { code: 200, body: { apiVersion: apiVersionOf(target.type), kind: target.type.listKind, metadata: { resourceVersion: String(this.store.resourceVersion) }, items: deleted }, warnings: [] };
  }

  /** Deletes now, or marks for deletion while finalizers remain. */
  private remove(type: ResourceType, current: Obj, options: WriteOptions): Outcome {
    if (current.metadata.finalizers?.length) {
      if (current.metadata.deletionTimestamp || options.dryRun) return { code: 200, body: current, warnings: [] };
      const marked = structuredClone(current);
      marked.metadata.deletionTimestamp = nowTime();
      marked.metadata.deletionGracePeriodSeconds = 0;
      return { code: 200, body: this.present(type, this.store.put(type.storage, toStorage(type, marked))), warnings: [] };
    }
    const gone = options.dryRun ? current : this.present(type, this.store.delete(type.storage, toStorage(type, current)));
    if (type.returnDeletedObject) return { code: 200, body: gone, warnings: [] };
    const details = { name: current.metadata.name, ...(type.group ? { group: type.group } : {}), kind: type.plural, uid: current.metadata.uid };
    return { code: 200, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details }, warnings: [] };
  }

  /** The write every create, update, patch and apply ends in. */
  private commit(current: Obj | undefined, candidate: Obj, context: WriteContext): Outcome {
    const { target, options } = context;
    const { type } = target;
    let next = structuredClone(candidate);
    const warnings: string[] = [];
    try {
      type.decode?.(next);
    } catch (error) {
      const message = (error as Error).message;
      if (context.viaPatch) throw statusError.invalid({ kind: '', group: '' }, '', [fieldError.invalid('patch', JSON.stringify(next), message)]);
      throw cannotHandle(type, message);
    }

    // Unknown fields go at decoding, before the strategy compares old and new.
    const pruned = type.schema ? pruneAndValidate(type.schema, next).pruned : [];
    if (pruned.length && options.fieldValidation === 'Strict') throw cannotHandle(type, `strict decoding error: ${pruned.map((path) => `unknown field "${path}"`).join(', ')}`);
    if (options.fieldValidation === 'Warn') warnings.push(...pruned.map((path) => `unknown field "${path}"`));

    if (current) {
      for (const field of SYSTEM_FIELDS) {
        if (current.metadata[field] === undefined) delete next.metadata[field];
        else next.metadata[field] = current.metadata[field];
      }
      next.metadata.resourceVersion = current.metadata.resourceVersion;
      if (scopeOf(target) === 'status') {
        const status = next.status;
        next = structuredClone(current);
        if (status === undefined) delete next.status;
        else next.status = status;
      } else if (scopeOf(target) === 'main') {
        if (current.status === undefined) delete next.status;
        else next.status = structuredClone(current.status);
      }
      const specChanged = scopeOf(target) !== 'status' && !isDeepStrictEqual(withoutMetadata(next), withoutMetadata(current));
      if (type.tracksGeneration && specChanged) next.metadata.generation = (current.metadata.generation ?? 0) + 1;
    } else {
      // etcd's create refuses this with a bare 500, for creates and for applies that create.
      if (next.metadata.resourceVersion) throw new ApiError(500, '', 'resourceVersion should not be set on objects to be created');
      for (const field of SYSTEM_FIELDS) delete next.metadata[field];
      if (type.statusSubresource) delete next.status;
      if (type.tracksGeneration) next.metadata.generation = 1;
      next.metadata.uid = randomUUID();
      next.metadata.creationTimestamp = nowTime();
    }
    type.defaults?.(next);

    const errors = [...validateMeta(type, next.metadata), ...(type.schema ? pruneAndValidate(type.schema, next).errors : [])];
    errors.push(...(type.validate?.(next, current) ?? []));
    if (errors.length) throw statusError.invalid(type, next.metadata.name ?? '', errors);

    // etcd is not written when nothing changed: same resourceVersion, no watch event.
    if (current && isDeepStrictEqual(next, current)) return { code: 200, body: current, warnings };
    if (current?.metadata.deletionTimestamp && !next.metadata.finalizers?.length) return this.remove(type, next, options);
    if (!current && this.store.get(type.storage, next.metadata.namespace, next.metadata.name)) throw statusError.alreadyExists(type, next.metadata.name);
    if (options.dryRun) return { code: current ? 200 : 201, body: next, warnings };
    if (!current && type.namespaced) this.ensureNamespace(next.metadata.namespace);

    const stored = this.present(type, this.store.put(type.storage, toStorage(type, next)));
    const writer = { manager: options.manager, subresource: target.subresource ?? '', apiVersion: apiVersionOf(type) };
    const before = current && this.store.managersOf(current.metadata.uid);
    this.store.setManagers(stored.metadata.uid, context.managers ?? recordUpdate(before ?? [], current, stored, writer, scopeOf(target)));
    return { code: current ? 200 : 201, body: stored, warnings };
  }

  /** Namespaces spring into existence when first used (a real server would answer 404). */
  ensureNamespace(name: string): void {
    if (this.store.get('namespaces', undefined, name)) return;
    const namespace = { apiVersion: 'v1', kind: 'Namespace', metadata: { name, uid: randomUUID(), creationTimestamp: nowTime() } };
    this.store.put('namespaces', {
      ...namespace,
      metadata: { ...namespace.metadata, labels: { 'kubernetes.io/metadata.name': name } },
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Active' },
    });
  }
}

const keyOf = (object: Obj) => `${object.metadata.namespace ?? ''}/${object.metadata.name}`;

function toStorage(type: ResourceType, object: Obj): Obj {
  return type.toStorage ? type.toStorage(object) : object;
}

/** The handlers' transformDecodeError. */
function cannotHandle(type: ResourceType, why: string) {
  return statusError.badRequest(`${type.kind} in version "${type.version}" cannot be handled as a ${type.kind}: ${why}`);
}

function failNotFound(target: Target): never {
  throw statusError.notFound(target.type, target.name ?? '');
}

/** A body as the decoder and the handler's checks see it: right kind, namespace and name. */
function decodeBody({ type, namespace, name }: Target, body: unknown): Obj {
  if (!isPlainObject(body)) throw statusError.badRequest(`Object 'Kind' is missing in '${JSON.stringify(body)}'`);
  if (type.unstructured && (!body.apiVersion || !body.kind)) throw statusError.badRequest(`Object 'Kind' is missing in '${JSON.stringify(body)}'`);
  if (body.apiVersion && body.apiVersion !== apiVersionOf(type)) {
    throw statusError.badRequest(`the API version in the data (${body.apiVersion}) does not match the expected API version (${apiVersionOf(type)})`);
  }
  if (body.kind && body.kind !== type.kind) throw statusError.badRequest(`the kind in the data (${body.kind}) does not match the expected kind (${type.kind})`);
  let metadata: Obj;
  try {
    metadata = decodeMeta(body.metadata);
  } catch (error) {
    throw cannotHandle(type, (error as Error).message);
  }
  if (type.namespaced) {
    if (metadata.namespace && metadata.namespace !== namespace) throw statusError.badRequest('the namespace of the provided object does not match the namespace sent on the request');
    metadata.namespace = namespace;
  } else delete metadata.namespace;
  if (name !== undefined && metadata.name !== name) {
    throw statusError.badRequest(`the name of the object (${metadata.name ?? ''}) does not match the name on the URL (${name})`);
  }
  return { ...structuredClone(body), apiVersion: apiVersionOf(type), kind: type.kind, metadata };
}

/** Optimistic concurrency: a resourceVersion or uid in the request must match the stored object. */
function checkPreconditions(target: Target, current: Obj, expected: { uid?: string; resourceVersion?: string }): void {
  if (expected.uid && expected.uid !== current.metadata.uid) {
    throw statusError.conflict(target.type, target.name!, `Precondition failed: UID in precondition: ${expected.uid}, UID in object meta: ${current.metadata.uid}`);
  }
  if (expected.resourceVersion && expected.resourceVersion !== current.metadata.resourceVersion) {
    throw statusError.conflict(target.type, target.name!, 'the object has been modified; please apply your changes to the latest version and try again');
  }
}
