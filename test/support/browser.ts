// A real headless Chromium (Debian's `chromium`, installed by setup.sh) driven by playwright-core,
// and pages that record every request they make and every error they print.
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ROOT } from './root.js';

export const CHROMIUM = process.env.SWITCHBOARD_CHROMIUM ?? '/usr/bin/chromium';
export const SCREENSHOTS = join(ROOT, 'test/console/screenshots');
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Each launch gets a fresh profile of Playwright's own; nothing reaches out to Google's services. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    chromiumSandbox: false,
    // Without the background-networking switches Chromium waits on the closed network.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface WatchedPage {
  page: Page;
  /** Every URL the page asked for, including those it was refused. */
  requests: string[];
  /** Console errors and uncaught exceptions, in order (a CSP refusal is one). */
  errors: string[];
  close(): Promise<void>;
}

/** A page in its own context (own cookies) at laptop width; `ignoreHTTPSErrors` for loopback servers with the test certificate. */
export async function openPage(
  browser: Browser,
  opts: { width?: number; height?: number; ignoreHTTPSErrors?: boolean } = {},
): Promise<WatchedPage> {
  const context = await browser.newContext({
    viewport: { width: opts.width ?? 1280, height: opts.height ?? 800 },
    ignoreHTTPSErrors: opts.ignoreHTTPSErrors,
  });
  const page = await context.newPage();
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (err) => errors.push(`uncaught: ${err.message}`));
  return { page, requests, errors, close: () => context.close() };
}

export const WIDTHS = { laptop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;

/**
 * Writes test/console/screenshots/<name>-laptop.png and <name>-phone.png (git-ignored) for a reviewer
 * to look at; the page is left at laptop width.
 */
export async function screenshots(page: Page, name: string): Promise<string[]> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const written: string[] = [];
  for (const [width, size] of Object.entries(WIDTHS)) {
    await page.setViewportSize(size);
    // The layout's transitions (the navigation folding away) run to their end before the picture.
    await page.evaluate(() => new Promise((frame) => requestAnimationFrame(frame)));
    // (A spinner's endless animation is not waited for; one cancelled meanwhile is over too.)
    await page.evaluate(() =>
      Promise.all(
        document
          .getAnimations()
          .filter((a) => a.effect?.getComputedTiming().endTime !== Infinity)
          .map((a) => a.finished.catch(() => undefined)),
      ),
    );
    const path = join(SCREENSHOTS, `${name}-${width}.png`);
    await page.screenshot({ path, fullPage: true, animations: 'disabled' });
    written.push(path);
  }
  await page.setViewportSize(WIDTHS.laptop);
  return written;
}

/** What axe-core finds against WCAG 2.1 A and AA on the page as it is now: labels, names, contrast, landmarks. */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const { violations } = await (window as any).axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return violations.map((v: any) => `${v.id}: ${v.help} at ${v.nodes.map((n: any) => n.target.join(' ')).join(', ')}`);
  });
}

/** The errors that are the Content-Security-Policy refusing something. */
export function refusedByCsp(errors: string[]): string[] {
  return errors.filter((e) => e.includes('Content Security Policy'));
}
