// Serves the console's built front end (api/console/web/, built into dist/console/ by `make build`):
// hashed assets cached for good, the page itself never, and the interactive API reference at /docs/api/.
import express, { Router, type Request, type Response } from 'express';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** dist/console/, beside this file's compiled dist/api/console/. */
export const BUILT_CONSOLE = fileURLToPath(new URL('../../console/', import.meta.url));

/** Paths the console page never answers for, however a browser asks: the APIs and the operators' own. */
const NOT_CONSOLE = ['/api/', '/v1/', '/mcp', '/console/', '/docs', '/healthz', '/readyz', '/metrics'];

function isConsolePath(path: string): boolean {
  return !NOT_CONSOLE.some((prefix) => path === prefix.replace(/\/$/, '') || path.startsWith(prefix));
}

/**
 * No script but the served files (and `scriptSrc`'s hashes of a page's own inline scripts), no
 * framing, nothing fetched from elsewhere. `styleSrc` is the page's allowance for the styles its
 * libraries add at run time.
 */
function contentSecurityPolicy(styleSrc: string, scriptSrc: string): string {
  return [
    "default-src 'self'",
    `script-src 'self'${scriptSrc ? ` ${scriptSrc}` : ''}`,
    `style-src 'self' ${styleSrc}`,
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** A page's headers: its policy, no sniffing, framing or referrer, and never cached. */
export function pageHeaders(res: Response, { styleSrc, scriptSrc = '' }: { styleSrc: string; scriptSrc?: string }): void {
  res.setHeader('Content-Security-Policy', contentSecurityPolicy(styleSrc, scriptSrc));
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Frame-Options', 'DENY');
  // The page names this build's assets: always asked again, so a new build is picked up at once.
  res.setHeader('Cache-Control', 'no-cache');
}

function sendPage(res: Response, html: string, styleSrc: string): void {
  pageHeaders(res, { styleSrc });
  res.type('html').send(html);
}

/** Hashed files, named anew by each build: cached for good, and a missing one is a 404, never a page. */
export function immutableFiles(dir: string): Router {
  return Router().use(
    express.static(dir, {
      immutable: true,
      maxAge: '365d',
      index: false,
      setHeaders: (res) => res.setHeader('X-Content-Type-Options', 'nosniff'),
    }),
    (_req: Request, res: Response) => {
      res.status(404).json({ error: 'No such file' });
    },
  );
}

/** The console: its assets under /console/assets/, its page at / and at every console path (deep links). */
export function consoleWebRouter(dir = BUILT_CONSOLE): Router {
  const r = Router();
  const built = existsSync(`${dir}/index.html`);
  const page = built ? readFileSync(`${dir}/index.html`, 'utf8') : '';
  const docs = built ? readFileSync(`${dir}/docs/index.html`, 'utf8') : '';
  const notBuilt = (_req: Request, res: Response) => {
    res.status(503).json({ error: 'The console is not built: run `make build`' });
  };

  r.use('/console/assets', immutableFiles(`${dir}/assets`));
  // Scalar adds its styles as <style> elements without a nonce; its scripts stay as strict as the console's.
  r.get(['/docs/api', '/docs/api/'], built ? (_req, res) => sendPage(res, docs, "'unsafe-inline'") : notBuilt);
  r.get(/.*/, (req, res, next) => {
    // A browser's navigation names text/html; a probe or curl (*/*) at a wrong path gets the 404, not a page.
    if (!isConsolePath(req.path) || !/\btext\/html\b/i.test(req.get('accept') ?? '') || !req.accepts('html')) return next();
    if (!built) return notBuilt(req, res);
    // A fresh nonce per answer, for the <style> elements Mantine adds (script stays 'self' only).
    const nonce = randomBytes(16).toString('base64');
    sendPage(res, page.replace('CSP_NONCE', nonce), `'nonce-${nonce}'`);
  });
  return r;
}
