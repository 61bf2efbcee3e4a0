// Steady bounded load for the fault drills: requests fired at a fixed rate with a bound on those in
// flight, each answer (or its absence) recorded, and the jobs created counted against Postgres.
import pg from 'pg';

export interface Answer {
  at: number;
  ms: number;
  /** HTTP status, or 0 when no answer came (connection refused or reset, or the timeout). */
  status: number;
  retryAfter: string | null;
  /** Why there was no answer: the fetch error's cause code, or `hang` past the timeout. */
  error?: string;
  body?: any;
}

export const HANG_MS = 10_000;

/** One request, with the API key (null: none, the console's cookie in `headers`, say); never throws, the failure is in the answer. */
export async function ask(
  url: string,
  apiKey: string | null,
  method: string,
  path: string,
  body?: unknown,
  timeoutMs = HANG_MS,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const at = Date.now();
  try {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { ...(apiKey === null ? {} : { authorization: `Bearer ${apiKey}` }), 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: kept as text
    }
    return { at, ms: Date.now() - at, status: res.status, retryAfter: res.headers.get('retry-after'), body: parsed };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    const error = e.name === 'TimeoutError' ? 'hang' : (e.cause?.code ?? e.message);
    return { at, ms: Date.now() - at, status: 0, retryAfter: null, error };
  }
}

/** Calls `fn` `perSecond` times a second for `ms`, at most `inFlight` at once (a tick is skipped when full); all settled. */
export async function steady(
  perSecond: number,
  ms: number,
  inFlight: number,
  fn: (i: number) => Promise<void>,
): Promise<{ fired: number; skipped: number }> {
  const running = new Set<Promise<void>>();
  let fired = 0;
  let skipped = 0;
  const start = Date.now();
  for (let i = 0; Date.now() - start < ms; i++) {
    const due = start + (i * 1000) / perSecond;
    if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
    if (running.size >= inFlight) {
      skipped++;
      continue;
    }
    const p = fn(fired++).finally(() => running.delete(p));
    running.add(p);
  }
  await Promise.all(running);
  return { fired, skipped };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` every `everyMs` until it is true or `ms` passed; whether it became true. */
export async function until(check: () => Promise<boolean> | boolean, ms: number, everyMs = 200): Promise<boolean> {
  const end = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > end) return false;
    await sleep(everyMs);
  }
}

export interface JobCount {
  acknowledged: number;
  /** Acknowledged, and no row in Postgres. */
  lost: number;
  /** Not in a final status at the end. */
  stuck: number;
  succeeded: number;
  /** Failed as interrupted: their run's replica died mid-run; the state table fails them rather than run them twice. */
  interrupted: number;
  /** Failed for another reason. */
  failedOther: number;
  /** Their error messages, each once. */
  otherErrors: string[];
  /** Run more than once: attempts > 1 or the model asked more than once for the job. */
  runTwice: number;
  /** Rows of one idempotency key beyond the first. */
  duplicateKeys: number;
}

const FINAL = ['succeeded', 'failed', 'expired', 'cancelled'];

/** The jobs acknowledged, as Postgres holds them at the end; `runs` counts the model's requests per job. */
export async function countJobs(databaseUrl: string, acknowledged: Iterable<string>, runs: Map<string, number>): Promise<JobCount> {
  const ids = [...new Set(acknowledged)];
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string; status: string; attempt_count: number; error_message: string | null }>(
      'select id, status, attempt_count, error_message from triggers where id = any($1)',
      [ids],
    );
    const keys = await client.query<{ n: string }>(
      'select count(*) - count(distinct (tenant_id, idempotency_key)) as n from triggers where idempotency_key is not null',
    );
    const count: JobCount = {
      acknowledged: ids.length,
      lost: ids.length - rows.length,
      stuck: 0,
      succeeded: 0,
      interrupted: 0,
      failedOther: 0,
      otherErrors: [],
      runTwice: 0,
      duplicateKeys: Number(keys.rows[0]!.n),
    };
    for (const r of rows) {
      if (!FINAL.includes(r.status)) count.stuck++;
      else if (r.status === 'succeeded') count.succeeded++;
      else if (/interrupted/.test(r.error_message ?? '')) count.interrupted++;
      else {
        count.failedOther++;
        if (!count.otherErrors.includes(String(r.error_message))) count.otherErrors.push(String(r.error_message));
      }
      if (r.attempt_count > 1 || (runs.get(r.id) ?? 0) > 1) count.runTwice++;
    }
    return count;
  } finally {
    await client.end();
  }
}

/** Jobs of the database not yet in a final status. */
export async function openJobs(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      `select count(*) as n from triggers where status not in ('succeeded', 'failed', 'expired', 'cancelled')`,
    );
    return Number(rows[0]!.n);
  } finally {
    await client.end();
  }
}

/** Statuses as `200×n 503×m …`, no answers by their reason. */
export function tally(answers: Answer[]): string {
  const counts = new Map<string, number>();
  for (const a of answers) {
    const k = a.status ? String(a.status) : `no answer (${a.error})`;
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return [...counts.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, n]) => `${k}×${n}`)
    .join(' ');
}
