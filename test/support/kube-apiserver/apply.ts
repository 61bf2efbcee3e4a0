// Server-side apply, reduced to what structured-merge-diff does for custom resources: each field
// manager owns leaf fields (maps are granular, lists atomic, as in a CRD without list-type markers);
// an apply merges the applied configuration, removes fields the same manager applied before and no
// longer does (unless someone else owns them), and conflicts with fields other managers own unless
// forced. Writes that are not applies (create, update, merge patch) take ownership of what they
// change. managedFields are kept here rather than on the object.
import { isDeepStrictEqual } from 'node:util';
import { ApiError, type Obj } from './errors.js';

type Path = string[];

export interface ManagerEntry {
  manager: string;
  operation: 'Apply' | 'Update';
  /** '' for the main resource, 'status' for the status subresource. */
  subresource: string;
  apiVersion: string;
  fields: Path[];
}

/** Which part of an object an endpoint writes: the whole object, all but status, or only status. */
export type Scope = 'all' | 'main' | 'status';

const TRACKED_METADATA = ['labels', 'annotations', 'finalizers', 'ownerReferences'];
const isPlainObject = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);
const keyOf = (path: Path) => JSON.stringify(path);
const related = (a: Path, b: Path) => a.slice(0, b.length).every((token, i) => token === b[i]) || b.slice(0, a.length).every((token, i) => token === a[i]);

/** The owned-field view of an object: every leaf (non-empty maps are walked into) inside the scope. */
function leaves(object: Obj, scope: Scope): Map<string, { path: Path; value: unknown }> {
  const out = new Map<string, { path: Path; value: unknown }>();
  const walk = (value: unknown, path: Path) => {
    if (isPlainObject(value) && Object.keys(value).length > 0) for (const [key, child] of Object.entries(value)) walk(child, [...path, key]);
    else out.set(keyOf(path), { path, value });
  };
  for (const [key, value] of Object.entries(object)) {
    if (key === 'apiVersion' || key === 'kind') continue;
    if (key === 'metadata') {
      if (scope !== 'status') for (const field of TRACKED_METADATA) if (value?.[field] !== undefined) walk(value[field], ['metadata', field]);
      continue;
    }
    if ((key === 'status') !== (scope === 'status') && scope !== 'all') continue;
    walk(value, [key]);
  }
  return out;
}

function valueAt(object: Obj | undefined, path: Path): unknown {
  let value: any = object;
  for (const token of path) value = isPlainObject(value) ? value[token] : undefined;
  return value;
}

function removeAt(object: Obj, path: Path): void {
  const parents: Obj[] = [];
  let container: any = object;
  for (const token of path.slice(0, -1)) {
    if (!isPlainObject(container[token])) return;
    parents.push(container);
    container = container[token];
  }
  delete container[path[path.length - 1]];
  // Maps emptied by the removal go too; nothing else holds them.
  for (let i = parents.length - 1; i >= 0 && Object.keys(container).length === 0; i--) {
    delete parents[i][path[i]];
    container = parents[i];
  }
}

function deepMerge(target: Obj, source: Obj): Obj {
  for (const [key, value] of Object.entries(source)) {
    if (value === null) continue;
    target[key] = isPlainObject(value) && isPlainObject(target[key]) ? deepMerge(target[key], value) : structuredClone(value);
  }
  return target;
}

const sameEntry = (a: ManagerEntry, b: Pick<ManagerEntry, 'manager' | 'operation' | 'subresource'>) =>
  a.manager === b.manager && a.operation === b.operation && a.subresource === b.subresource;

function disown(entries: ManagerEntry[], paths: Path[], except: ManagerEntry): ManagerEntry[] {
  return entries
    .map((entry) => (entry === except ? entry : { ...entry, fields: entry.fields.filter((field) => !paths.some((path) => related(field, path))) }))
    .filter((entry) => entry.fields.length > 0 || entry === except);
}

/** Ownership after a write that is not an apply: the writer takes every leaf whose value changed. */
export function recordUpdate(entries: ManagerEntry[], before: Obj | undefined, after: Obj, writer: Omit<ManagerEntry, 'fields' | 'operation'>, scope: Scope): ManagerEntry[] {
  const old = before ? leaves(before, scope) : new Map();
  const now = leaves(after, scope);
  const changed = [...new Set([...old.keys(), ...now.keys()])].filter((key) => !isDeepStrictEqual(old.get(key)?.value, now.get(key)?.value));
  if (changed.length === 0) return entries;
  const mine = entries.find((entry) => sameEntry(entry, { ...writer, operation: 'Update' })) ?? { ...writer, operation: 'Update' as const, fields: [] };
  const changedPaths = changed.map((key) => (now.get(key) ?? old.get(key))!.path);
  const updated = disown(entries.includes(mine) ? entries : [...entries, mine], changedPaths, mine);
  const kept = mine.fields.filter((field) => !changedPaths.some((path) => related(field, path)));
  const gained = changed.filter((key) => now.has(key)).map((key) => now.get(key)!.path);
  const fields = [...kept, ...gained];
  return updated.map((entry) => (entry === mine ? { ...mine, fields } : entry)).filter((entry) => entry.fields.length > 0);
}

export interface ApplyRequest {
  manager: string;
  subresource: string;
  apiVersion: string;
  force: boolean;
  scope: Scope;
}

/** Merges an applied configuration into `current` (undefined when the apply creates the object). */
export function applyConfiguration(entries: ManagerEntry[], current: Obj | undefined, applied: Obj, request: ApplyRequest): { object: Obj; entries: ManagerEntry[] } {
  const appliedLeaves = leaves(applied, request.scope);
  const previous = entries.find((entry) => sameEntry(entry, { ...request, operation: 'Apply' }));
  const conflicts: { manager: ManagerEntry; path: Path }[] = [];
  for (const { path, value } of appliedLeaves.values()) {
    if (isDeepStrictEqual(valueAt(current, path), value)) continue;
    for (const entry of entries) {
      if (entry !== previous && entry.fields.some((field) => related(field, path))) conflicts.push({ manager: entry, path });
    }
  }
  if (conflicts.length > 0 && !request.force) throw conflictError(conflicts);

  const mine: ManagerEntry = { manager: request.manager, operation: 'Apply', subresource: request.subresource, apiVersion: request.apiVersion, fields: [...appliedLeaves.values()].map((leaf) => leaf.path) };
  let updated = entries.filter((entry) => entry !== previous);
  if (request.force) updated = disown(updated, conflicts.map((conflict) => conflict.path), mine);

  const object = deepMerge(structuredClone(current ?? {}), applied);
  for (const field of previous?.fields ?? []) {
    const stillApplied = appliedLeaves.has(keyOf(field));
    const ownedElsewhere = updated.some((entry) => entry.fields.some((other) => related(other, field)));
    if (!stillApplied && !ownedElsewhere) removeAt(object, field);
  }
  return { object, entries: [...updated, mine].filter((entry) => entry.fields.length > 0) };
}

function printManager(entry: ManagerEntry): string {
  let text = JSON.stringify(entry.manager);
  if (entry.subresource) text += ` with subresource ${JSON.stringify(entry.subresource)}`;
  return entry.operation === 'Update' ? `${text} using ${entry.apiVersion}` : text;
}

const printPath = (path: Path) => path.map((token) => `.${token}`).join('');

/** The message and causes of k8s.io/apiserver's fieldmanager conflict error. */
function conflictError(conflicts: { manager: ManagerEntry; path: Path }[]): ApiError {
  const causes = conflicts.map(({ manager, path }) => ({ reason: 'FieldManagerConflict', message: `conflict with ${printManager(manager)}`, field: printPath(path) }));
  if (conflicts.length === 1) {
    return new ApiError(409, 'Conflict', `Apply failed with 1 conflict: conflict with ${printManager(conflicts[0].manager)}: ${printPath(conflicts[0].path)}`, { causes });
  }
  const byManager = new Map<string, string[]>();
  for (const { manager, path } of conflicts) byManager.set(printManager(manager), [...(byManager.get(printManager(manager)) ?? []), printPath(path)]);
  const lines = [...byManager.keys()].sort().flatMap((manager) => [`conflicts with ${manager}:`, ...byManager.get(manager)!.map((path) => `- ${path}`)]);
  return new ApiError(409, 'Conflict', `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`, { causes });
}
