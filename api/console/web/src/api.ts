// The console's fetch client for /console/api: JSON both ways, the session's CSRF token on every
// change, and back to the sign-in page when the session is gone.

export type Role = 'owner' | 'admin' | 'member' | 'viewer';

const LADDER: Role[] = ['viewer', 'member', 'admin', 'owner'];
/** Whether `role` may do what `needed` may: the page hides what the server would refuse. */
export const mayAct = (role: Role, needed: Role): boolean => LADDER.indexOf(role) >= LADDER.indexOf(needed);

export interface Session {
  user: { id: string; email: string; name: string; role: Role };
  account: { id: string; name: string };
  csrf_token: string;
}

/** An answer other than 2xx, in the console API's error shape `{error: {code, message}}`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const BASE = '/console/api';
let csrfToken: string | undefined;

/** Where a lost session sends the user: the sign-in page, then back here. */
export function signInPath(): string {
  const here = `${window.location.pathname}${window.location.search}`;
  return here === '/' || here.startsWith('/sign-in') ? '/sign-in' : `/sign-in?next=${encodeURIComponent(here)}`;
}

async function request<T>(
  method: string,
  path: string,
  body?: unknown,
  opts: { onUnauthorized: 'sign-in' | 'throw' } = { onUnauthorized: 'sign-in' },
): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['X-CSRF-Token'] = csrfToken;
  const res = await fetch(`${BASE}${path}`, {
    method,
    headers,
    credentials: 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status === 401 && opts.onUnauthorized === 'sign-in') {
    csrfToken = undefined;
    window.location.assign(signInPath());
    // The page is leaving: the caller neither resumes nor shows an error meanwhile.
    return new Promise<T>(() => {});
  }
  if (!res.ok) {
    const answer = (await res.json().catch(() => undefined)) as { error?: { code?: string; message?: string } } | undefined;
    throw new ApiError(res.status, answer?.error?.code ?? `http_${res.status}`, answer?.error?.message ?? res.statusText);
  }
  return (res.status === 204 ? undefined : await res.json()) as T;
}

function remember(session: Session): Session {
  csrfToken = session.csrf_token;
  return session;
}

export const api = {
  get: <T>(path: string) => request<T>('GET', path),
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, body ?? {}),
  patch: <T>(path: string, body: unknown) => request<T>('PATCH', path, body),
  delete: <T>(path: string) => request<T>('DELETE', path),

  /** The current session, or null when nobody is signed in. */
  async session(): Promise<Session | null> {
    try {
      return remember(await request<Session>('GET', '/session', undefined, { onUnauthorized: 'throw' }));
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return null;
      throw err;
    }
  },
  async signIn(email: string, password: string): Promise<Session> {
    return remember(await request<Session>('POST', '/sign-in', { email, password }, { onUnauthorized: 'throw' }));
  },
  async signOut(): Promise<void> {
    await request<void>('POST', '/sign-out');
    csrfToken = undefined;
  },
  setPassword: (password: string) => request<void>('POST', '/password', { password }),
};
