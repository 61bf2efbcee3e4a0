// The etcd part: objects by storage key, one global and increasing resourceVersion, a bounded
// history of changes for watches (older resourceVersions are "compacted" and answer 410 Expired),
// and listeners told of each change as it is written.
import { randomUUID } from 'node:crypto';
import type { ManagerEntry } from './apply.js';
import type { Obj } from './errors.js';

export type EventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface StoredEvent {
  resourceVersion: number;
  type: EventType;
  storage: string;
  object: Obj;
  /** The object before the change (MODIFIED, DELETED): watchers filtering by selector need it. */
  previous?: Obj;
}

const keyOf = (namespace: string | undefined, name: string) => `${namespace ?? ''}/${name}`;

export class Store {
  private revision = 1;
  private readonly objects = new Map<string, Map<string, Obj>>();
  private readonly history: StoredEvent[] = [];
  /** Changes up to and including this revision are no longer in the history. */
  private compactedThrough = 0;
  private readonly listeners = new Set<(event: StoredEvent) => void>();
  /** Field ownership (server-side apply) by object uid. */
  private readonly managers = new Map<string, ManagerEntry[]>();

  constructor(private readonly historyLimit: number) {}

  get resourceVersion(): number {
    return this.revision;
  }

  get(storage: string, namespace: string | undefined, name: string): Obj | undefined {
    const object = this.objects.get(storage)?.get(keyOf(namespace, name));
    return object && structuredClone(object);
  }

  /** Sorted by namespace and name, as etcd's key order gives them. */
  list(storage: string, namespace?: string): Obj[] {
    return [...(this.objects.get(storage)?.entries() ?? [])]
      .filter(([, object]) => namespace === undefined || object.metadata.namespace === namespace)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, object]) => structuredClone(object));
  }

  managersOf(uid: string): ManagerEntry[] {
    return this.managers.get(uid) ?? [];
  }

  setManagers(uid: string, entries: ManagerEntry[]): void {
    this.managers.set(uid, entries);
  }

  /** Writes a new or changed object with the next resourceVersion; returns the stored copy. */
  put(storage: string, object: Obj): Obj {
    const key = keyOf(object.metadata.namespace, object.metadata.name);
    const bucket = this.objects.get(storage) ?? this.objects.set(storage, new Map()).get(storage)!;
    const previous = bucket.get(key);
    const stored = structuredClone(object);
    stored.metadata.resourceVersion = String(++this.revision);
    stored.metadata.uid ??= randomUUID();
    bucket.set(key, stored);
    this.record({ resourceVersion: this.revision, type: previous ? 'MODIFIED' : 'ADDED', storage, object: stored, previous });
    return structuredClone(stored);
  }

  /** Deletes an object; the DELETED event carries it with the deletion's resourceVersion, as etcd's watch does. */
  delete(storage: string, object: Obj): Obj {
    const key = keyOf(object.metadata.namespace, object.metadata.name);
    const previous = this.objects.get(storage)?.get(key);
    if (!previous) return object;
    this.objects.get(storage)!.delete(key);
    this.managers.delete(previous.metadata.uid);
    const gone = structuredClone(previous);
    gone.metadata.resourceVersion = String(++this.revision);
    this.record({ resourceVersion: this.revision, type: 'DELETED', storage, object: gone, previous });
    return structuredClone(previous);
  }

  /** Changes after `resourceVersion`, or 'expired' when some of them were compacted away. */
  since(resourceVersion: number): StoredEvent[] | 'expired' {
    if (resourceVersion < this.compactedThrough) return 'expired';
    return this.history.filter((event) => event.resourceVersion > resourceVersion);
  }

  get oldestResourceVersion(): number {
    return this.compactedThrough;
  }

  /** Forgets the history up to now, as etcd compaction does. */
  compact(): void {
    this.history.length = 0;
    this.compactedThrough = this.revision;
  }

  subscribe(listener: (event: StoredEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private record(event: StoredEvent): void {
    this.history.push(event);
    while (this.history.length > this.historyLimit) this.compactedThrough = this.history.shift()!.resourceVersion;
    for (const listener of this.listeners) listener(event);
  }
}
