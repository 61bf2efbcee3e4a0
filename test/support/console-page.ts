// Signing a console user in through the real sign-in page, as a person does.
import type { Page } from 'playwright-core';
import type { Role } from '../../pkg/console/roles.js';
import type { TestApp } from './app.js';
import { PASSWORD, signedInUser } from './console.js';

/** Makes a user of `tenantId` with `role` and signs them in on `page`; the Overview is shown. */
export async function signInOnPage(page: Page, app: TestApp, tenantId: string, role: Role): Promise<void> {
  const { email } = await signedInUser(app, tenantId, role);
  await page.goto(`${app.url}/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Overview' }).waitFor();
}
