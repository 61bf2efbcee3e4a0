// A counting proxy on loopback between a system and its Postgres: it forwards the wire protocol
// untouched and counts, per tag (one listener each), the statements the server completed, the round
// trips the clients waited on, the rows the completed statements wrote, and each statement text's
// executions. It never speaks TLS: an SSLRequest is refused ('N') and the client goes on in the clear.
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface StatementCounts {
  /** Execute messages (extended protocol) or Query messages (simple) sent with this text. */
  executions: number;
  /** Rows its CommandComplete tags said were inserted, updated or deleted. */
  rowsWritten: number;
  errors: number;
}

export interface WireCounts {
  /** Connections opened (startup messages). */
  connections: number;
  /** CommandComplete plus ErrorResponse messages from the server. */
  statements: number;
  /** Times a client sent while nothing it had sent was unanswered: how often it waited on Postgres. */
  roundTrips: number;
  /** Rows inserted, updated or deleted, from CommandComplete tags. */
  rowsWritten: number;
  errors: number;
  bytesToServer: number;
  bytesToClient: number;
  /** By statement text, whitespace collapsed. */
  bySql: Record<string, StatementCounts>;
}

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
/** Parse, Bind, Describe, Execute, Close, Flush: a batch the client goes on sending until its Sync. */
const EXTENDED = new Set(['P', 'B', 'D', 'E', 'C', 'H']);
const WRITES = /^(?:INSERT \d+|UPDATE|DELETE|MERGE) (\d+)$/;

export const emptyCounts = (): WireCounts => ({
  connections: 0,
  statements: 0,
  roundTrips: 0,
  rowsWritten: 0,
  errors: 0,
  bytesToServer: 0,
  bytesToClient: 0,
  bySql: {},
});

/** The frames in a stream of bytes: type byte and int32 length, or (the client's first) a length alone. */
class Frames {
  private pending: Buffer = Buffer.alloc(0);
  constructor(private typed: boolean) {}

  startTyped(): void {
    this.typed = true;
  }

  /** Complete frames in `chunk` and what came before it; `type` is '' for an untyped one. */
  *push(chunk: Buffer): Generator<{ type: string; body: Buffer }> {
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    for (;;) {
      const head = this.typed ? 1 : 0;
      if (this.pending.length < head + 4) return;
      const end = head + this.pending.readInt32BE(head);
      if (this.pending.length < end) return;
      const type = this.typed ? String.fromCharCode(this.pending[0]!) : '';
      const body = this.pending.subarray(head + 4, end);
      this.pending = this.pending.subarray(end);
      yield { type, body };
    }
  }
}

/** A NUL-terminated string at `at`, and where the next field starts. */
function cstring(body: Buffer, at: number): [string, number] {
  const end = body.indexOf(0, at);
  return [body.toString('utf8', at, end), end + 1];
}

const collapse = (sql: string) => sql.replace(/\s+/g, ' ').trim();

/** What one connection has sent and not yet had answered, in order: executions, and Sync markers. */
type Sent = { sql: string; simple: boolean } | 'sync';

/** One client connection's bookkeeping, counting into `counts`. */
class Session {
  private readonly prepared = new Map<string, string>();
  private readonly portals = new Map<string, string>();
  private readonly sent: Sent[] = [];
  /** Syncs and simple queries sent minus ReadyForQuery received; the startup counts as one. */
  private outstanding = 1;
  /** Extended-protocol messages sent since the last Sync: the client is still sending, not waiting. */
  private unsynced = false;

  constructor(private readonly counts: () => WireCounts) {}

  private statement(sql: string): StatementCounts {
    const bySql = this.counts().bySql;
    bySql[sql] ??= { executions: 0, rowsWritten: 0, errors: 0 };
    return bySql[sql];
  }

  fromClient(type: string, body: Buffer): void {
    if (type === 'X') return;
    if (this.outstanding === 0 && !this.unsynced) this.counts().roundTrips++;
    if (EXTENDED.has(type)) this.unsynced = true;
    if (type === 'S' || type === 'Q') this.unsynced = false;
    if (type === 'P') {
      const [name, at] = cstring(body, 0);
      this.prepared.set(name, collapse(cstring(body, at)[0]));
    } else if (type === 'B') {
      const [portal, at] = cstring(body, 0);
      this.portals.set(portal, this.prepared.get(cstring(body, at)[0]) ?? '(unknown prepared statement)');
    } else if (type === 'E') {
      const sql = this.portals.get(cstring(body, 0)[0]) ?? '(unknown portal)';
      this.statement(sql).executions++;
      this.sent.push({ sql, simple: false });
    } else if (type === 'Q') {
      const sql = collapse(cstring(body, 0)[0]);
      this.statement(sql).executions++;
      this.sent.push({ sql, simple: true });
      this.outstanding++;
    } else if (type === 'S') {
      this.sent.push('sync');
      this.outstanding++;
    }
  }

  fromServer(type: string, body: Buffer): void {
    const head = this.sent[0];
    const current = head && head !== 'sync' ? head : undefined;
    if (type === 'C' || type === 'E') {
      const counts = this.counts();
      counts.statements++;
      if (type === 'E') counts.errors++;
      if (current) {
        const statement = this.statement(current.sql);
        if (type === 'E') statement.errors++;
        const written = type === 'C' ? WRITES.exec(cstring(body, 0)[0]) : null;
        if (written) {
          statement.rowsWritten += Number(written[1]);
          counts.rowsWritten += Number(written[1]);
        }
        // A simple query may hold several statements: it is answered in full at ReadyForQuery.
        if (!current.simple) this.sent.shift();
      }
    } else if (type === 'I' && current && !current.simple) {
      this.sent.shift();
    } else if (type === 'Z') {
      this.outstanding = Math.max(0, this.outstanding - 1);
      // Up to the Sync or simple query answered; executions an error skipped go with it.
      while (this.sent.length) {
        const done = this.sent.shift()!;
        if (done === 'sync' || done.simple) break;
      }
    }
  }
}

export interface WireCounter {
  /** `databaseUrl` with its host and port replaced by a new listener of the counter's, counted under `tag`. */
  proxy(databaseUrl: string, tag: string): Promise<string>;
  /** What each tag's connections did since the last reset. */
  counts(): Record<string, WireCounts>;
  reset(): void;
  close(): Promise<void>;
}

export function startWireCounter(): WireCounter {
  let byTag: Record<string, WireCounts> = {};
  const servers: Server[] = [];
  const sockets = new Set<Socket>();
  const countsOf = (tag: string) => () => (byTag[tag] ??= emptyCounts());

  function relay(client: Socket, upstream: { host: string; port: number }, counts: () => WireCounts): void {
    const server = connect(upstream);
    for (const s of [client, server]) {
      sockets.add(s);
      s.setNoDelay(true);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {
        client.destroy();
        server.destroy();
      });
    }
    client.on('close', () => server.end());
    server.on('close', () => client.end());
    const session = new Session(counts);
    const fromClient = new Frames(false);
    const fromServer = new Frames(true);
    client.on('data', (chunk: Buffer) => {
      const frames: Buffer[] = [];
      for (const { type, body } of fromClient.push(chunk)) {
        if (!type) {
          const code = body.readInt32BE(0);
          if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
            client.write('N');
            continue;
          }
          if (code !== CANCEL_REQUEST) {
            counts().connections++;
            fromClient.startTyped();
          }
        } else {
          session.fromClient(type, body);
        }
        frames.push(type ? Buffer.from(type) : Buffer.alloc(0), lengthOf(body), body);
      }
      const out = Buffer.concat(frames);
      counts().bytesToServer += out.length;
      if (out.length) server.write(out);
    });
    server.on('data', (chunk: Buffer) => {
      counts().bytesToClient += chunk.length;
      client.write(chunk);
      for (const { type, body } of fromServer.push(chunk)) session.fromServer(type, body);
    });
  }

  return {
    async proxy(databaseUrl, tag) {
      const url = new URL(databaseUrl);
      const upstream = { host: url.hostname, port: Number(url.port || 5432) };
      const listener = createServer((client) => relay(client, upstream, countsOf(tag)));
      servers.push(listener);
      await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
      url.hostname = '127.0.0.1';
      url.port = String((listener.address() as AddressInfo).port);
      return url.toString();
    },
    counts: () => structuredClone(byTag),
    reset() {
      byTag = {};
    },
    async close() {
      for (const s of sockets) s.destroy();
      await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
    },
  };
}

function lengthOf(body: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeInt32BE(body.length + 4);
  return length;
}
