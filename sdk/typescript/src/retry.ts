// 429 and 503 answers retried after Retry-After, a bounded number of times and for a bounded wait,
// where a retry is safe.
export type Fetch = (request: Request) => Promise<Response>;

/** Wait when an answer gives no Retry-After: 1 s, 2 s, 4 s… */
const backoffMs = (attempt: number): number => 1000 * 2 ** attempt;

/** Retry-After in seconds or as an HTTP date, in milliseconds from now; null when absent or unreadable. */
function retryAfterMs(response: Response): number | null {
  const value = response.headers.get('retry-after');
  if (value === null) return null;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

/**
 * Whether the request may be sent again after this answer. Every 429 of Switchboard is decided
 * before any work (rate limits, call caps), so it is always safe; a 503 may come after the work
 * began, so it is retried only when it says when (Retry-After), and a POST only when it carries an
 * idempotency key (the Idempotency-Key header of POST /v1/calls, or a job's `idempotencyKey`).
 */
async function mayRetry(request: Request, response: Response): Promise<boolean> {
  if (response.status === 429) return true;
  if (response.status !== 503 || !response.headers.has('retry-after')) return false;
  if (request.method !== 'POST' || request.headers.has('idempotency-key')) return true;
  const text = await request.clone().text();
  try {
    return typeof JSON.parse(text)?.idempotencyKey === 'string';
  } catch {
    return false;
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', stop, { once: true });
  });
}

/**
 * `fetch`, sending a request again (the same bytes, the same headers) at most `maxRetries` times;
 * an answer whose Retry-After is more than `maxWaitSec` away is answered at once.
 */
export function retryingFetch(fetch: Fetch, maxRetries: number, maxWaitSec: number): Fetch {
  return async (request) => {
    for (let attempt = 0; ; attempt++) {
      // Each try sends a copy: a body can be read only once.
      const response = await fetch(request.clone());
      if (attempt >= maxRetries || !(await mayRetry(request, response))) return response;
      const waitMs = retryAfterMs(response) ?? backoffMs(attempt);
      if (waitMs > maxWaitSec * 1000) return response;
      await response.body?.cancel();
      await sleep(waitMs, request.signal);
    }
  };
}
