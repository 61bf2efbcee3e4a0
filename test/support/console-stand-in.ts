// The console's page served by the real router (api/console/web.ts) beside a stand-in of the console
// back end's sign-in contract (/console/api: sign-in, session, sign-out and password with the CSRF token), until
// the back end is on main: it keeps the sessions it hands out and what it was asked.
import express from 'express';
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { consoleWebRouter } from '../../api/console/web.js';

export const OWNER = {
  email: 'owner@example.com',
  password: 'correct horse battery staple',
  user: { id: 'usr_1', email: 'owner@example.com', name: 'Olive Owner', role: 'owner' },
  account: { id: 'acc_1', name: 'Acme Clinics' },
};

export interface ConsoleStandIn {
  url: string;
  /** Each request to /console/api: method, path, and the CSRF header it carried. */
  asked: { method: string; path: string; csrf?: string }[];
  /** The passwords set through POST /console/api/password, in order. */
  passwords: string[];
  /** Every session ends, as when signed out everywhere. */
  endSessions(): void;
  /** The next sign-in answers 429 rate_limited. */
  limitNextSignIn(): void;
  close(): Promise<void>;
}

export async function startConsoleStandIn(): Promise<ConsoleStandIn> {
  const sessions = new Map<string, string>(); // cookie → csrf token
  const asked: ConsoleStandIn['asked'] = [];
  const passwords: string[] = [];
  let limited = false;
  const cookieOf = (req: express.Request) => /(?:^|;\s*)sb_session=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
  const signedIn = (csrf: string) => ({ user: OWNER.user, account: OWNER.account, csrf_token: csrf });

  const api = express.Router();
  api.use(express.json());
  api.use((req, _res, next) => {
    asked.push({ method: req.method, path: req.path, csrf: req.get('x-csrf-token') });
    next();
  });
  api.post('/sign-in', (req, res) => {
    if (limited) {
      limited = false;
      return void res.status(429).json({ error: { code: 'rate_limited', message: 'Too many sign-in attempts' } });
    }
    if (req.body?.email !== OWNER.email || req.body?.password !== OWNER.password) {
      return void res.status(401).json({ error: { code: 'invalid_credentials', message: 'Wrong email or password' } });
    }
    const cookie = randomBytes(16).toString('hex');
    const csrf = randomBytes(16).toString('hex');
    sessions.set(cookie, csrf);
    res.cookie('sb_session', cookie, { httpOnly: true, sameSite: 'lax', path: '/' });
    res.json(signedIn(csrf));
  });
  api.get('/session', (req, res) => {
    const csrf = sessions.get(cookieOf(req) ?? '');
    if (!csrf) return void res.status(401).json({ error: { code: 'not_signed_in', message: 'Sign in first' } });
    res.json(signedIn(csrf));
  });
  // Changes need the session and its CSRF token.
  const change: express.RequestHandler = (req, res, next) => {
    const cookie = cookieOf(req) ?? '';
    if (!sessions.has(cookie)) return void res.status(401).json({ error: { code: 'not_signed_in', message: 'Sign in first' } });
    if (req.get('x-csrf-token') !== sessions.get(cookie)) return void res.status(403).json({ error: { code: 'csrf_failed', message: 'Bad CSRF token' } });
    next();
  };
  api.post('/sign-out', change, (req, res) => {
    sessions.delete(cookieOf(req)!);
    res.clearCookie('sb_session', { path: '/' }).status(204).end();
  });
  api.post('/password', change, (req, res) => {
    passwords.push(req.body?.password);
    res.status(204).end();
  });

  const app = express().use('/console/api', api).use(consoleWebRouter());
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    asked,
    passwords,
    endSessions: () => sessions.clear(),
    limitNextSignIn: () => void (limited = true),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
