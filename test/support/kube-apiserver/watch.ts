// Watch streams: newline-delimited JSON events after the requested resourceVersion, from the store's
// history then live. Semantics of the watch cache: no resourceVersion (or "0") starts with synthetic
// ADDED events for what exists; a compacted resourceVersion yields one ERROR event with a 410
// Expired Status (HTTP 200, as the real server answers); selectors turn changes that enter or leave
// the selection into ADDED and DELETED; bookmarks are sent when asked for; timeoutSeconds ends it.
import type { ServerResponse } from 'node:http';
import { statusError, type Obj } from './errors.js';
import { apiVersionOf, type ResourceType } from './resources.js';
import { fieldMatcher, labelMatcher } from './selectors.js';
import type { Store, StoredEvent } from './store.js';
import { toTable, type TableOptions } from './table.js';
import type { Api } from './verbs.js';

export interface WatchRequest {
  type: ResourceType;
  namespace?: string;
  query: URLSearchParams;
  /** Set when the client asked for Table rows. */
  table?: TableOptions;
  bookmarkIntervalMs: number;
}

const isTrue = (value: string | null) => value === 'true' || value === '1';

/** Starts a watch; the returned function ends it. Throws (before anything is written) on a bad request. */
export function serveWatch(api: Api, store: Store, request: WatchRequest, res: ServerResponse): () => void {
  const { type, namespace, query } = request;
  const labels = labelMatcher(query.get('labelSelector'));
  const fields = fieldMatcher(type, query.get('fieldSelector'));
  const requested = query.get('resourceVersion') ?? '';
  if (requested && !/^\d+$/.test(requested)) throw statusError.badRequest(`invalid resource version: ${requested}`);
  const sendInitialEvents = isTrue(query.get('sendInitialEvents'));
  const matches = (object: Obj) => (namespace === undefined || object.metadata.namespace === namespace) && labels(object) && fields(object);

  res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private' });
  res.flushHeaders();
  let table = request.table && { ...request.table };
  const send = (eventType: string, object: Obj) => {
    let shown = object;
    if (table && eventType !== 'BOOKMARK' && eventType !== 'ERROR') {
      shown = toTable(type, [object], table);
      // Column definitions go with the first event only, as the real server's watch encoder does.
      table = { ...table, noHeaders: true };
    }
    res.write(`${JSON.stringify({ type: eventType, object: shown })}\n`);
  };
  const bookmark = (annotations?: Record<string, string>) =>
    send('BOOKMARK', { kind: type.kind, apiVersion: apiVersionOf(type), metadata: { resourceVersion: String(store.resourceVersion), ...(annotations ? { annotations } : {}) } });

  const deliver = (event: StoredEvent) => {
    if (event.storage !== type.storage) return;
    const now = api.present(type, event.object);
    const before = event.previous && api.present(type, event.previous);
    const nowPasses = event.type !== 'DELETED' && matches(now);
    const beforePasses = before !== undefined && matches(before);
    if (nowPasses) send(beforePasses ? 'MODIFIED' : 'ADDED', now);
    else if (beforePasses) send('DELETED', { ...before, metadata: { ...before.metadata, resourceVersion: String(event.resourceVersion) } });
  };

  const timers: NodeJS.Timeout[] = [];
  let unsubscribe = () => {};
  const end = () => {
    unsubscribe();
    timers.forEach(clearTimeout);
    if (!res.writableEnded) res.end();
  };
  res.on('close', end);

  if (!requested || requested === '0' || sendInitialEvents) {
    for (const stored of store.list(type.storage, namespace)) {
      const object = api.present(type, stored);
      if (matches(object)) send('ADDED', object);
    }
    if (sendInitialEvents) bookmark({ 'k8s.io/initial-events-end': 'true' });
  } else {
    const events = store.since(Number(requested));
    if (events === 'expired') {
      send('ERROR', statusError.expired(`too old resource version: ${requested} (${store.oldestResourceVersion})`).status());
      end();
      return end;
    }
    events.forEach(deliver);
  }
  unsubscribe = store.subscribe(deliver);

  if (isTrue(query.get('allowWatchBookmarks'))) timers.push(setInterval(() => bookmark(), request.bookmarkIntervalMs));
  const timeoutSeconds = Number(query.get('timeoutSeconds') ?? 0);
  if (timeoutSeconds > 0) timers.push(setTimeout(end, timeoutSeconds * 1000));
  return end;
}
