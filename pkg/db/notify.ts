// pg_notify in the transaction that makes a change, so a waiter wakes exactly when it is visible.
import pg from 'pg';
import type { Knex } from 'knex';
import type { Logger } from '../log.js';

type NotifyHandler = (payload: string) => void;

export const CHANNELS = {
  triggers: 'switchboard_triggers',
  webhooks: 'switchboard_webhooks',
  calls: 'switchboard_calls',
  /** A call's transcript grew (payload: the call's id); apart from `calls`, so call loops are not woken by their own words. */
  transcripts: 'switchboard_transcripts',
  campaigns: 'switchboard_campaigns',
  /** A company's billing mode or timezone changed (payload: its id): its months to invoice may have moved. */
  invoices: 'switchboard_invoices',
  /** A queue's member came free (payload: the queue's id). */
  queues: 'switchboard_queues',
  /** A turn lock was given up (payload: its key); sent by migration 021's switchboard_release_turn_lock. */
  turnLocks: 'switchboard_turn_locks',
} as const;

/** Announce a change on `channel`; call inside the transaction that makes it. */
export async function notify(db: Knex, channel: string, payload = ''): Promise<void> {
  await db.raw('select pg_notify(?, ?)', [channel, payload]);
}

/** A `returning` column that notifies each changed row's id, saving a round trip; drop it with `withoutAnnounced`. */
export function notifyIdColumn(db: Knex, channel: string): Knex.Raw {
  return db.raw('pg_notify(?, id::text) as announced', [channel]);
}

export function withoutAnnounced<T>({ announced: _, ...row }: T & { announced?: unknown }): T {
  return row as T;
}

/** The advisory lock each process's listen connection holds (with its pid): live processes seen in pg_locks. */
export const PRESENCE_LOCK_CLASS = 0x5357_4201;

export class Notifier {
  private client: pg.Client | null = null;
  /** The backend pid of the listen connection, while it holds its presence lock; 0 before the first connects. */
  presencePid = 0;
  private readonly handlers = new Map<string, Set<NotifyHandler>>();
  private closed = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly url: string,
    private readonly log: Logger,
  ) {}

  /** Listen; a database unreachable now is tried again in the background, so the process still starts (and answers 503). */
  async open(): Promise<void> {
    await this.start().catch((err: Error) => {
      this.log.warn({ err: err.message }, 'listen connection failed; retrying');
      this.reconnectSoon();
    });
  }

  private async start(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url, application_name: 'switchboard-listen' });
    client.on('notification', (msg) => {
      for (const handler of this.handlers.get(msg.channel) ?? []) handler(msg.payload ?? '');
    });
    client.on('error', (err) => {
      this.log.warn({ err: err.message }, 'listen connection lost; reconnecting');
      this.reconnectSoon();
    });
    await client.connect();
    const { rows } = await client.query('select pg_backend_pid() as pid, pg_advisory_lock($1, pg_backend_pid())', [PRESENCE_LOCK_CLASS]);
    this.presencePid = rows[0].pid;
    for (const channel of this.handlers.keys()) await client.query(`listen ${channel}`);
    this.client = client;
    // Whatever was announced while disconnected: wake everyone once.
    for (const set of this.handlers.values()) for (const handler of set) handler('');
  }

  private reconnectSoon(): void {
    const old = this.client;
    this.client = null;
    old?.end().catch(() => {});
    if (this.closed || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.start().catch(() => this.reconnectSoon());
    }, 1000);
  }

  async subscribe(channel: string, handler: NotifyHandler): Promise<() => void> {
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
      await this.client?.query(`listen ${channel}`);
    }
    set.add(handler);
    return () => set!.delete(handler);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    await this.client?.end().catch(() => {});
  }
}
