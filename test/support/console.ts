// A browser of the console, in miniature: keeps the `sb_session` cookie it is given, sends it back,
// and sends the session's CSRF token and the server's own Origin with every change, as the console's
// pages do. Tests override any header to play an attacker.
import { addUser } from '../../pkg/console/users.js';
import type { Role } from '../../pkg/console/roles.js';
import type { HttpResult, TestApp } from './app.js';

export const PASSWORD = 'correct horse battery staple';

export class ConsoleBrowser {
  /** The `sb_session` cookie's value, as the browser holds it. */
  cookie?: string;
  csrfToken?: string;
  /** The Set-Cookie headers of the last answer. */
  setCookies: string[] = [];

  constructor(readonly url: string) {}

  async request<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResult<T>> {
    const res = await fetch(`${this.url}${path}`, {
      method,
      redirect: 'manual',
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(this.cookie ? { cookie: `sb_session=${this.cookie}` } : {}),
        ...(method !== 'GET' && this.csrfToken ? { 'x-csrf-token': this.csrfToken } : {}),
        ...(method !== 'GET' ? { origin: this.url } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    this.setCookies = res.headers.getSetCookie();
    for (const c of this.setCookies) {
      const m = /^sb_session=([^;]*)/.exec(c);
      if (m) this.cookie = m[1] || undefined;
    }
    const text = await res.text();
    const parsed = res.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : text || undefined;
    if (parsed?.csrf_token) this.csrfToken = parsed.csrf_token;
    return { status: res.status, headers: res.headers, body: parsed };
  }

  get = <T = any>(path: string) => this.request<T>('GET', path);
  post = <T = any>(path: string, body: unknown = {}) => this.request<T>('POST', path, body);
  patch = <T = any>(path: string, body: unknown = {}) => this.request<T>('PATCH', path, body);
  delete = <T = any>(path: string) => this.request<T>('DELETE', path);

  signIn(email: string, password = PASSWORD) {
    return this.post('/console/api/sign-in', { email, password });
  }

  /** Follows a one-time sign-in link (not its redirect), then asks for the session so the CSRF token is known. */
  async openLink(link: string): Promise<HttpResult> {
    const res = await this.request('GET', new URL(link).pathname);
    if (res.status === 303) await this.get('/console/api/session');
    return res;
  }
}

let users = 0;

/** A console user of `tenantId` with PASSWORD, signed in, as `admin user add` and the first visit make one. */
export async function signedInUser(
  app: TestApp,
  tenantId: string,
  role: Role = 'owner',
): Promise<{ browser: ConsoleBrowser; id: string; email: string }> {
  const email = `user${++users}.${Date.now()}@example.com`;
  const { user, signInUrl } = await addUser(app.runtime.ctx, { tenantId, user: null }, { email, role, name: `User ${users}` });
  const browser = new ConsoleBrowser(app.url);
  await browser.openLink(signInUrl);
  const set = await browser.post('/console/api/password', { password: PASSWORD });
  if (set.status !== 204) throw new Error(`setting the password failed: ${JSON.stringify(set.body)}`);
  return { browser, id: user.id, email };
}

/** The account's audit entries whose action starts with one of `prefixes` (`queue.`), oldest first: [action, target, user id, details]. */
export async function auditEntries(app: TestApp, tenantId: string, ...prefixes: string[]): Promise<unknown[][]> {
  const rows = await app.runtime.ctx
    .db('console_audit')
    .where({ tenant_id: tenantId })
    .andWhere((q) => {
      for (const p of prefixes) q.orWhereLike('action', `${p}%`);
    })
    .orderBy('id');
  return rows.map((e) => [e.action, e.target, e.user_id, e.details]);
}
