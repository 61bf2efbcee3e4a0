import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { startTestApp, type TestApp } from '../support/app.js';
import { launchBrowser, openPage, refusedByCsp, screenshots, type WatchedPage } from '../support/browser.js';
import { ROOT } from '../support/root.js';

const asBrowser = { accept: 'text/html,application/xhtml+xml' };

/** The concept page the sidebar lists first (lowest `order`), and its heading. */
function firstConcept(): { path: string; heading: string } {
  const dir = join(ROOT, 'docs', 'concepts');
  const pages = readdirSync(dir)
    .filter((file) => file.endsWith('.md'))
    .map((file) => {
      const text = readFileSync(join(dir, file), 'utf8');
      return {
        path: `/docs/concepts/${file.replace(/\.md$/, '')}`,
        order: Number(/^order:\s*(\d+)/m.exec(text)?.[1] ?? Number.MAX_SAFE_INTEGER),
        heading: /^# (.+)$/m.exec(text)![1]!,
      };
    });
  return pages.sort((a, b) => a.order - b.order)[0]!;
}

describe('GET /docs (the documentation site)', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(async () => {
    await app?.close();
  });

  it('serves each page at its clean URL and as .html, never cached, under a strict policy', async () => {
    const root = await fetch(`${app.url}/docs`, { redirect: 'manual' });
    expect(root.status).to.equal(301);
    expect(root.headers.get('location')).to.equal('/docs/');
    for (const path of ['/docs/', '/docs/quickstart', '/docs/quickstart.html', '/docs/reference/', '/docs/reference/voice-api/calls']) {
      const res = await fetch(`${app.url}${path}`, { headers: asBrowser });
      expect(res.status, path).to.equal(200);
      expect(res.headers.get('content-type'), path).to.match(/^text\/html/);
      expect(res.headers.get('cache-control'), path).to.equal('no-cache');
      expect(res.headers.get('x-content-type-options'), path).to.equal('nosniff');
      expect(res.headers.get('referrer-policy'), path).to.equal('no-referrer');
      const csp = res.headers.get('content-security-policy') ?? '';
      const scripts = /script-src ([^;]*)/.exec(csp)?.[1] ?? '';
      // Only the served files and the hashes of VitePress's own inline scripts, never any inline script.
      expect(scripts.split(' ')[0], path).to.equal("'self'");
      const hashes = scripts.split(' ').slice(1);
      expect(hashes, path).to.not.be.empty;
      for (const hash of hashes) expect(hash, path).to.match(/^'sha256-[\w+/=]+'$/);
      expect(csp, path).to.include("frame-ancestors 'none'").and.include("connect-src 'self'").and.include("default-src 'self'");
    }
    const clean = await (await fetch(`${app.url}/docs/quickstart`)).text();
    expect(await (await fetch(`${app.url}/docs/quickstart.html`)).text()).to.equal(clean);
    expect(clean).to.include('<title>Quick start | Switchboard</title>');
  });

  it('serves its hashed assets cached for good, and a missing page or asset as 404', async () => {
    const html = await (await fetch(`${app.url}/docs/`)).text();
    const assets = [...html.matchAll(/(?:src|href)="(\/docs\/assets\/[^"]+)"/g)].map(([, path]) => path!);
    expect(assets.some((a) => a.endsWith('.js')) && assets.some((a) => a.endsWith('.css')), html).to.equal(true);
    for (const asset of assets) {
      const res = await fetch(`${app.url}${asset}`);
      expect(res.status, asset).to.equal(200);
      expect(res.headers.get('cache-control'), asset).to.equal('public, max-age=31536000, immutable');
      expect(res.headers.get('x-content-type-options'), asset).to.equal('nosniff');
    }
    expect((await fetch(`${app.url}/docs/assets/app.00000000.js`)).status).to.equal(404);
    for (const path of [
      '/docs/no-such-page',
      '/docs/guides/no-such-guide.html',
      '/docs/reference/voice-api/no-such-tag',
      '/docs/%E0%A4%A',
    ]) {
      const res = await fetch(`${app.url}${path}`, { headers: asBrowser });
      expect(res.status, path).to.equal(404);
      expect(res.headers.get('content-security-policy'), path).to.include("frame-ancestors 'none'");
    }
  });

  it("documents every operation of both OpenAPI documents under its operationId's anchor, and each webhook", async () => {
    for (const [api, file] of [
      ['agent-api', 'agent-api.json'],
      ['voice-api', 'voice-api.json'],
    ]) {
      const doc = JSON.parse(readFileSync(join(ROOT, 'openapi', file!), 'utf8'));
      const pages = new Map<string, string>();
      for (const [path, item] of Object.entries<any>(doc.paths)) {
        for (const [method, op] of Object.entries<any>(item)) {
          const slug = op.tags[0].toLowerCase().replace(/[^a-z0-9]+/g, '-');
          if (!pages.has(slug)) {
            const res = await fetch(`${app.url}/docs/reference/${api}/${slug}`);
            expect(res.status, `${api}/${slug}`).to.equal(200);
            pages.set(slug, await res.text());
          }
          const page = pages.get(slug)!;
          expect(page, op.operationId).to.include(`id="${op.operationId}"`);
          expect(page, op.operationId).to.include(`${method.toUpperCase()} ${doc.servers[0].url}${path}`);
        }
      }
      const events = Object.keys(doc.webhooks ?? {});
      if (events.length === 0) continue;
      const webhooks = await (await fetch(`${app.url}/docs/reference/${api}/webhooks`)).text();
      for (const event of events) expect(webhooks, event).to.include(`id="${event.replace(/[^a-z0-9]+/g, '-')}"`);
    }
  });

  describe('in Chromium', () => {
    let browser: Browser;
    let watched: WatchedPage;
    before(async () => {
      browser = await launchBrowser();
      watched = await openPage(browser);
    });
    after(async () => {
      await watched?.close();
      await browser?.close();
    });

    it('shows the home page, a concept, the quick start with its tabs, search and the API reference from the server alone', async () => {
      const { page } = watched;
      await page.goto(`${app.url}/docs/`);
      await page.getByRole('heading', { name: 'Switchboard', level: 1 }).waitFor();
      await page.getByRole('link', { name: 'Quick start' }).first().waitFor();
      await screenshots(page, 'docs-site-home');

      const concept = firstConcept();
      await page.goto(`${app.url}${concept.path}`);
      await page.getByRole('heading', { name: concept.heading, level: 1 }).waitFor();
      await screenshots(page, 'docs-site-concept');

      await page.goto(`${app.url}/docs/quickstart`);
      const group = page.locator('.vp-code-group').first();
      expect(await group.locator('.blocks > div.active').textContent()).to.include('curl -sS');
      await group.getByText('Python', { exact: true }).click();
      await group.locator('.blocks > div.active', { hasText: 'from switchboard import Switchboard' }).waitFor();
      await group.getByText('TypeScript', { exact: true }).click();
      await group.locator('.blocks > div.active', { hasText: "from '@switchboard/sdk'" }).waitFor();
      await screenshots(page, 'docs-site-quickstart');

      await page.getByRole('button', { name: 'Search' }).click();
      await page.getByPlaceholder('Search', { exact: true }).fill('first conversation');
      const hit = page.locator('.VPLocalSearchBox .result', { hasText: 'The first conversation' }).first();
      await hit.waitFor();
      await screenshots(page, 'docs-site-search');
      await hit.click();
      await page.waitForURL(/\/docs\/quickstart#the-first-conversation$/);

      await page.goto(`${app.url}/docs/reference/voice-api/calls#placeCall`);
      await page.locator('h2#placeCall').waitFor();
      await page.getByText('POST /v1/calls', { exact: true }).waitFor();
      await screenshots(page, 'docs-site-reference');

      const elsewhere = watched.requests.filter((url) => !url.startsWith(`${app.url}/`));
      expect(elsewhere, 'requests off the server').to.deep.equal([]);
      expect(refusedByCsp(watched.errors), 'refused by the policy').to.deep.equal([]);
      expect(watched.errors, 'console errors').to.deep.equal([]);
    });
  });
});
