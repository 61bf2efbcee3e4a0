// Serves the documentation site (docs/, built by VitePress into dist/docs-site/ by `make build`) at
// /docs: clean URLs and .html alike, hashed assets cached for good, pages never, a missing page a 404.
import express, { Router, type Request, type Response } from 'express';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { immutableFiles, pageHeaders } from '../console/web.js';

/** dist/docs-site/, beside this file's compiled dist/api/docs/. */
export const BUILT_SITE = fileURLToPath(new URL('../../docs-site/', import.meta.url));

/** The policy's sources for each inline <script> of `pages` (VitePress's appearance and hash-map scripts). */
export function inlineScriptHashes(pages: Iterable<string>): string[] {
  const hashes = new Set<string>();
  for (const html of pages) {
    for (const [, body] of html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)) {
      hashes.add(`'sha256-${createHash('sha256').update(body!).digest('base64')}'`);
    }
  }
  return [...hashes].sort();
}

/** The built file a path under /docs names: `/a/b` and `/a/b.html` are a/b.html (or a/b/index.html), `/a/` is a/index.html. */
function candidates(path: string): string[] {
  let inside: string;
  try {
    inside = decodeURIComponent(path).replace(/^\/+/, '');
  } catch {
    return []; // not a path any page has
  }
  if (inside === '' || inside.endsWith('/')) return [`${inside}index.html`];
  if (inside.endsWith('.html')) return [inside];
  return [`${inside}.html`, `${inside}/index.html`];
}

/** Mounted at /docs. */
export function docsSiteRouter(dir = BUILT_SITE): Router {
  const r = Router();
  if (!existsSync(join(dir, 'index.html'))) {
    r.use((_req: Request, res: Response) => {
      res.status(503).json({ error: 'The documentation is not built: run `make build`' });
    });
    return r;
  }
  const pages = new Map(
    readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.html'))
      .map((file) => [file.split('\\').join('/'), readFileSync(join(dir, file), 'utf8')]),
  );
  // Shiki's colours and Vue's bindings are style attributes: styles may be inline, scripts may not.
  const policy = { styleSrc: "'unsafe-inline'", scriptSrc: inlineScriptHashes(pages.values()).join(' ') };
  const send = (res: Response, html: string, status = 200) => {
    pageHeaders(res, policy);
    res.status(status).type('html').send(html);
  };

  r.use('/assets', immutableFiles(join(dir, 'assets')));
  r.get(/.*/, (req, res, next) => {
    // The site's own links all start with /docs/: one address per page.
    if (req.originalUrl === '/docs' || req.originalUrl.startsWith('/docs?')) return res.redirect(301, '/docs/');
    const page = candidates(req.path)
      .map((file) => pages.get(file))
      .find(Boolean);
    if (page) return send(res, page);
    next();
  });
  // The site's few unhashed files (its icons' stylesheet, the pages' hash map): asked again each time.
  r.use(
    express.static(dir, {
      index: false,
      cacheControl: false,
      setHeaders: (res) => {
        res.setHeader('Cache-Control', 'no-cache');
        res.setHeader('X-Content-Type-Options', 'nosniff');
      },
    }),
  );
  r.get(/.*/, (_req, res) => send(res, pages.get('404.html')!, 404));
  return r;
}
