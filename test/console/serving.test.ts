import { expect } from 'chai';
import express from 'express';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { consoleWebRouter } from '../../api/console/web.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { launchBrowser, openPage, refusedByCsp } from '../support/browser.js';
import type { Browser } from 'playwright-core';

const PAGE = '<div id="root">';
const asBrowser = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

function expectStrictPolicy(headers: Headers): void {
  const csp = headers.get('content-security-policy') ?? '';
  expect(csp)
    .to.include("script-src 'self';")
    .and.include("frame-ancestors 'none'")
    .and.include("object-src 'none'")
    .and.include("connect-src 'self'");
  expect(csp).not.to.match(/script-src[^;]*(unsafe|data:|\*)/);
  expect(headers.get('x-content-type-options')).to.equal('nosniff');
  expect(headers.get('referrer-policy')).to.equal('no-referrer');
}

describe('The console, served by the API process', () => {
  let app: TestApp;
  let browser: Browser;
  before(async () => {
    app = await startTestApp();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });

  it('answers / and deep links with its page, never cached, under a strict Content-Security-Policy', async () => {
    for (const path of ['/', '/sign-in', '/calls/call_01J0', '/jobs?status=waiting']) {
      const res = await fetch(`${app.url}${path}`, { headers: asBrowser });
      expect(res.status, path).to.equal(200);
      expect(res.headers.get('content-type'), path).to.match(/^text\/html/);
      expect(res.headers.get('cache-control'), path).to.equal('no-cache');
      expectStrictPolicy(res.headers);
      expect(await res.text(), path).to.include(PAGE);
    }
  });

  it('gives every answer of the page its own style nonce, and no inline script', async () => {
    const [a, b] = await Promise.all([fetch(`${app.url}/`, { headers: asBrowser }), fetch(`${app.url}/`, { headers: asBrowser })]);
    const nonceOf = (res: Response) => /style-src 'self' 'nonce-([^']+)'/.exec(res.headers.get('content-security-policy') ?? '')?.[1];
    const [first, second] = [nonceOf(a), nonceOf(b)];
    expect(first).to.be.a('string').and.not.equal(second);
    const html = await a.text();
    expect(html).to.include(`<meta name="csp-nonce" content="${first}"`);
    // Every <script> names a file: none carries code of its own.
    expect([...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map(([, code]) => code!.trim())).to.satisfy(
      (codes: string[]) => codes.length > 0 && codes.every((c) => c === ''),
    );
  });

  it('serves its hashed assets cached for a year, and a missing one as 404, not as the page', async () => {
    const html = await (await fetch(`${app.url}/`, { headers: asBrowser })).text();
    const assets = [...html.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)].map(([, path]) => path!);
    expect(assets.some((a) => a.endsWith('.js')) && assets.some((a) => a.endsWith('.css')), html).to.equal(true);
    for (const asset of assets) {
      const res = await fetch(`${app.url}${asset}`);
      expect(res.status, asset).to.equal(200);
      expect(res.headers.get('cache-control'), asset).to.equal('public, max-age=31536000, immutable');
      expect(res.headers.get('content-type'), asset).to.match(asset.endsWith('.js') ? /^text\/javascript/ : /^text\/css/);
      expect(res.headers.get('x-content-type-options'), asset).to.equal('nosniff');
    }
    const missing = await fetch(`${app.url}/console/assets/console-0000.js`, { headers: asBrowser });
    expect(missing.status).to.equal(404);
    expect(await missing.text()).not.to.include(PAGE);
  });

  it("never answers the APIs' paths with its page, even to a browser", async () => {
    const { apiKey } = await app.company();
    const signed = { ...asBrowser, authorization: `Bearer ${apiKey}` };
    const voice = await fetch(`${app.url}/v1/unknown`, { headers: signed });
    expect(voice.status).to.equal(404);
    expect((await voice.json()).error).to.include({ code: 'not_found' });
    const agent = await fetch(`${app.url}/api/v1/unknown`, { headers: signed });
    expect(agent.status).to.equal(404);
    expect(await agent.json()).to.deep.equal({ error: 'No such endpoint' });
    for (const path of [
      '/console/api/unknown',
      '/console/sign-in',
      '/docs/unknown',
      '/api',
      '/mcp',
      '/healthz',
      '/readyz',
      '/metrics',
      '/v1/openapi.json',
      '/api/v1/openapi.json',
      '/v1/carrier/twilio/voice',
    ]) {
      const res = await fetch(`${app.url}${path}`, { headers: asBrowser });
      expect(await res.text(), path).not.to.include(PAGE);
    }
  });

  it('answers a client that does not ask for HTML, as a kubelet probe or curl, at a path of no endpoint with 404', async () => {
    for (const accept of ['*/*', 'application/json']) {
      const res = await fetch(`${app.url}/ready`, { headers: { accept } });
      expect(res.status, accept).to.equal(404);
      expect(await res.json(), accept).to.deep.equal({ error: 'No such endpoint' });
    }
  });

  it('runs in Chromium under its policy: the page draws its styled sign-in form and nothing is refused', async () => {
    const watched = await openPage(browser);
    try {
      await watched.page.goto(`${app.url}/sign-in`);
      // No console back end on this server yet: the page says so instead of failing silently.
      const signInOrProblem = watched.page.getByRole('button', { name: /Sign in|Try again/ });
      await signInOrProblem.waitFor();
      // Mantine's theme arrives in a <style> element carrying the nonce; refused, the button would be unstyled.
      const background = await signInOrProblem.evaluate((el) => getComputedStyle(el).backgroundColor);
      expect(background).to.equal('rgb(25, 113, 194)');
      expect(refusedByCsp(watched.errors)).to.deep.equal([]);
      expect(
        watched.requests.every((url) => url.startsWith(`${app.url}/`)),
        watched.requests.join('\n'),
      ).to.equal(true);
    } finally {
      await watched.close();
    }
  });

  it('says how to build it when dist/console is missing, instead of a page that cannot load', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'switchboard-no-console-'));
    const server = express().use(consoleWebRouter(empty)).listen(0, '127.0.0.1');
    try {
      await new Promise((resolve) => server.once('listening', resolve));
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      for (const path of ['/', '/docs/api/']) {
        const res = await fetch(`${base}${path}`, { headers: asBrowser });
        expect(res.status, path).to.equal(503);
        expect(await res.json(), path).to.deep.equal({ error: 'The console is not built: run `make build`' });
      }
    } finally {
      server.close();
      rmSync(empty, { recursive: true });
    }
  });
});
