import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import type { Client } from '../support/app.js';
import { accessibilityViolations, launchBrowser, openPage, refusedByCsp, screenshots, type WatchedPage } from '../support/browser.js';
import { PASSWORD, signedInUser } from '../support/console.js';
import { finalResult, NUMBERS, startCallsApp, type CallsApp } from '../support/calls.js';
import { parkedJob } from '../support/triggers.js';
import { startReceiver } from '../support/webhooks.js';
import { webhookSecret } from '../../pkg/webhooks/secret.js';

describe('The console jobs, conversations and agents pages', () => {
  let app: CallsApp;
  let browser: Browser;
  let client: Client;
  let agentId: string;
  let tenantId: string;
  let watched: WatchedPage;
  /** The bodies of every /console/api answer the page received, in order. */
  let answers: string[];
  before(async () => {
    app = await startCallsApp({ controllers: true });
    browser = await launchBrowser();
    ({ client, agentId, tenantId } = await app.voiceCompany());
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });
  beforeEach(async () => {
    watched = await openPage(browser);
    answers = [];
    watched.page.on('response', async (res) => {
      if (new URL(res.url()).pathname.startsWith('/console/api/')) answers.push(await res.text().catch(() => ''));
    });
  });
  afterEach(async () => {
    expect(refusedByCsp(watched.errors)).to.deep.equal([]);
    await watched.close();
  });

  /** A user of `role` signed in through the sign-in page. */
  async function signIn(role: 'owner' | 'member' | 'viewer' = 'member'): Promise<Page> {
    const { email } = await signedInUser(app, tenantId, role);
    const { page } = watched;
    await page.goto(`${app.url}/sign-in`);
    await page.getByLabel('Email').fill(email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    return page;
  }

  const parked = (task: string) => parkedJob(app, client, agentId, task);

  /** Opens the job from the list of jobs waiting for a human, through the navigation. */
  async function openWaitingJob(page: Page, task: string): Promise<void> {
    await page.getByRole('link', { name: 'Jobs', exact: true }).click();
    await page.getByRole('heading', { name: 'Jobs', exact: true }).waitFor();
    await page.getByLabel('Status', { exact: true }).selectOption('waiting_for_reply');
    await page.getByRole('link', { name: task }).click();
    await page.getByRole('heading', { name: 'Waiting for a human' }).waitFor();
  }

  it('lists a job waiting for a human, and a reply typed on its page resumes it there, the model seeing the reply', async () => {
    const job = await parked('Ship order A-17 by reply');
    const page = await signIn('member');
    await openWaitingJob(page, 'Ship order A-17 by reply');
    expect(await page.getByText('Which warehouse should ship order A-17?').first().isVisible()).to.equal(true);
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    await screenshots(page, 'job-waiting');

    app.model.reply({ content: 'Shipping from Berlin' });
    const before = app.model.requests.length;
    await page.getByLabel('Your answer').fill('Use the Berlin warehouse');
    await page.getByRole('button', { name: 'Reply' }).click();
    // The page polls the job: it reaches Succeeded without a reload.
    await page.getByText('Succeeded').first().waitFor();
    await page.getByText('Shipping from Berlin').first().waitFor();
    expect((app.model.requests[before] as any).messages).to.deep.include({
      role: 'system',
      content: 'HUMAN REPLY (provided): Use the Berlin warehouse',
    });
    expect((await client.get(`/api/v1/triggers/${job.triggerId}`)).body.status).to.equal('succeeded');
    await screenshots(page, 'job-succeeded');

    await page.getByRole('link', { name: 'All jobs' }).click();
    await page.getByRole('link', { name: 'Ship order A-17 by reply' }).waitFor();
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    await screenshots(page, 'jobs');
  });

  for (const [button, decision] of [
    ['Approve', 'approved'],
    ['Reject', 'rejected'],
  ] as const) {
    it(`${button.toLowerCase()}s a waiting job from its page`, async () => {
      const job = await parked(`Ship order to ${decision}`);
      const page = await signIn('owner');
      await openWaitingJob(page, `Ship order to ${decision}`);
      app.model.reply({ content: `Done after ${decision}` });
      const before = app.model.requests.length;
      await page.getByRole('button', { name: button }).click();
      await page.getByText(`Done after ${decision}`).first().waitFor();
      expect((app.model.requests[before] as any).messages).to.deep.include({ role: 'system', content: `HUMAN REPLY (${decision}):` });
      expect((await client.get(`/api/v1/jobs/${job.triggerId}`)).body.humanReply).to.include({ decision });
    });
  }

  it('cancels a waiting job', async () => {
    const job = await parked('Ship order to cancel');
    const page = await signIn('member');
    await openWaitingJob(page, 'Ship order to cancel');
    await page.getByRole('button', { name: 'Cancel job' }).click();
    await page.getByText('Cancelled').first().waitFor();
    expect((await client.get(`/api/v1/triggers/${job.triggerId}`)).body.status).to.equal('cancelled');
  });

  it("shows a viewer the job, conversation and agent with no action, and another account's ids as errors", async () => {
    const job = await parked('Ship order seen by a viewer');
    const other = await app.company();
    const page = await signIn('viewer');
    await openWaitingJob(page, 'Ship order seen by a viewer');
    for (const name of ['Reply', 'Approve', 'Reject', 'Cancel job'])
      expect(await page.getByRole('button', { name }).count(), name).to.equal(0);
    await page.goto(`${app.url}/conversations?id=${job.conversationId}`);
    await page.getByRole('heading', { name: 'Conversation' }).waitFor();
    await page.getByText('Calls request_human_input').first().waitFor();
    expect(await page.getByRole('textbox', { name: /^Manual message/ }).count()).to.equal(0);
    await page.goto(`${app.url}/agents?id=${agentId}`);
    await page.getByLabel('System prompt').waitFor();
    expect(await page.getByRole('button', { name: 'Save agent' }).count()).to.equal(0);
    expect(await page.getByLabel('System prompt').getAttribute('readonly')).to.not.equal(null);

    for (const path of [`/jobs?id=${other.agentId}`, `/agents?id=${other.agentId}`, `/conversations?id=${other.agentId}`]) {
      await page.goto(`${app.url}${path}`);
      await page
        .getByRole('alert')
        .filter({ hasText: /Unknown/ })
        .waitFor();
    }
  });

  it("adds a manual message to a job's conversation under the signed-in name, opened from its job", async () => {
    const job = await parked('Ship order with a note');
    const page = await signIn('member');
    const session = await page.evaluate(async () => (await fetch('/console/api/session')).json());
    await openWaitingJob(page, 'Ship order with a note');
    await page.getByRole('link', { name: 'Open the conversation' }).click();
    await page.getByText('Calls request_human_input').first().waitFor();
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    await page.getByRole('textbox', { name: /^Manual message/ }).fill('Stock checked by hand');
    await page.getByRole('button', { name: 'Add message' }).click();
    await page.getByRole('list', { name: 'Messages' }).getByText('Stock checked by hand').waitFor();
    const transcript = (await client.get(`/api/v1/conversations/${job.conversationId}`)).body.messages;
    const added = transcript.find((m: any) => m.role === 'admin' && m.content === 'Stock checked by hand');
    expect(added?.metadata).to.include({ username: session.user.name, source: 'manual' });
    await screenshots(page, 'conversation');
  });

  it('lists the call conversations, not the API ones, each leading to its call', async () => {
    const job = await parked('Ship order kept off the list');
    const call = (await client.post('/v1/calls', { to: NUMBERS.answer, task: 'Confirm the delivery window' })).body;
    await finalResult(client, call.id);
    const page = await signIn('member');
    await page.getByRole('link', { name: 'Conversations' }).click();
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: call.id }) });
    await row.waitFor();
    expect(await page.getByRole('link', { name: job.conversationId }).count()).to.equal(0);
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    await screenshots(page, 'conversations');
    await row.getByRole('link').first().click();
    await page.getByRole('heading', { name: 'Conversation', exact: true }).waitFor();
    await page.getByRole('list', { name: 'Messages' }).waitFor();
    expect(await page.getByRole('textbox', { name: /^Manual message/ }).count()).to.equal(0);
    await page.getByRole('link', { name: 'All conversations' }).click();
    await row.getByRole('link', { name: call.id }).click();
    await page.getByRole('heading', { name: `Call ${call.id}` }).waitFor();
  });

  it("edits an agent's prompt and sets a tool's secret, which never comes back to the browser", async () => {
    const secret = 'sk-crm-browser-secret-42';
    const page = await signIn('member');
    await page.getByRole('link', { name: 'Agents' }).click();
    await page.getByRole('heading', { name: 'Agents', exact: true }).waitFor();
    // Away from the navigation link it clicked, so its hover colours are not what axe measures.
    await page.mouse.move(0, 0);
    await page.locator(`a[href="/agents?id=${agentId}"]`).waitFor();
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    await screenshots(page, 'agents');
    await page.locator(`a[href="/agents?id=${agentId}"]`).click();
    await page.getByLabel('System prompt').waitFor();

    await page.getByLabel('System prompt').fill('You ship orders from Berlin.');
    const tool = {
      name: 'crm',
      description: 'Looks up the customer',
      url: 'https://crm.example.com/customers',
      method: 'GET',
      authType: 'bearer',
      parameters: [],
    };
    await page.getByLabel('Tools (JSON, without secrets)').fill(JSON.stringify([tool]));
    await page.getByLabel('Token of crm').fill(secret);
    await page.getByRole('button', { name: 'Save agent' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    await screenshots(page, 'agent');

    // Saved again without touching the secret: it is kept; and a reload never shows it.
    await page.getByLabel('System prompt').fill('You ship orders from Hamburg.');
    await page.getByRole('button', { name: 'Save agent' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    await page.reload();
    await page.getByLabel('System prompt').waitFor();
    expect(await page.getByLabel('System prompt').inputValue()).to.equal('You ship orders from Hamburg.');
    expect(await page.getByLabel('Token of crm').inputValue()).to.equal('');

    expect(answers.length).to.be.greaterThan(3);
    expect(answers.filter((a) => a.includes(secret) || a.includes('sealedAuth'))).to.deep.equal([]);
    const stored = await app.runtime.ctx.db('agents').where({ id: agentId }).first();
    const { openAuth } = await import('../../pkg/tools/custom-tools.js');
    expect(openAuth(stored.tools[0], app.runtime.ctx.secrets)).to.deep.equal({ token: secret });
    expect(stored.system_prompt).to.equal('You ship orders from Hamburg.');
  });

  it("picks the voice an agent's calls speak with from the deployment's catalogue, or its default", async () => {
    const page = await signIn('member');
    await page.goto(`${app.url}/agents?id=${agentId}`);
    const voice = page.getByRole('combobox', { name: 'Voice on calls' });
    await voice.waitFor();
    expect(await voice.inputValue()).to.equal('');
    expect(await voice.locator('option').allTextContents()).to.include.members(["The deployment's default (Joanna)", 'Vicki · de-DE']);

    await voice.selectOption({ label: 'Vicki · de-DE' });
    await page.getByRole('button', { name: 'Save agent' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();

    const stored = async () => (await app.runtime.ctx.db('agents').where({ id: agentId }).first()).voice;
    expect(await stored()).to.equal('vicki');
    await page.reload();
    await voice.waitFor();
    expect(await voice.inputValue()).to.equal('vicki');
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    await voice.selectOption('');
    await page.getByRole('button', { name: 'Save agent' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    expect(await stored()).to.equal(null);
  });

  it('requires a verified contact for an agent from its settings, and lifts it', async () => {
    const page = await signIn('member');
    await page.goto(`${app.url}/agents?id=${agentId}`);
    const required = page.getByRole('switch', { name: 'Require a verified contact' });
    await required.waitFor();
    expect(await required.isChecked()).to.equal(false);

    await required.check();
    await page.getByRole('button', { name: 'Save agent' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();

    const stored = async () => (await app.runtime.ctx.db('agents').where({ id: agentId }).first()).verification;
    expect(await stored()).to.deep.equal({ required: true, method: 'passcode', deliver_to: 'webhook' });
    await page.reload();
    await required.waitFor();
    expect(await required.isChecked()).to.equal(true);
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    await required.uncheck();
    await page.getByRole('button', { name: 'Save agent' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    expect(await stored()).to.equal(null);
  });

  it("sends the agent's own message webhook a signed message.test from its page and shows how the receiver answered", async () => {
    const receiver = await startReceiver(await webhookSecret(app.runtime.ctx, tenantId));
    try {
      const page = await signIn('member');
      await page.goto(`${app.url}/agents?id=${agentId}`);
      const send = page.getByRole('button', { name: 'Send test message' });
      await page.getByRole('heading', { name: "Test the agent's message webhook" }).waitFor();
      expect(await send.isDisabled(), 'no webhook of its own yet').to.equal(true);
      await page.getByLabel("Message webhook URL (empty: the account's)").fill(receiver.url);
      await page.getByRole('button', { name: 'Save agent' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();

      await send.click();
      const delivered = page.getByRole('status').filter({ hasText: 'Delivered' });
      await delivered.waitFor();
      expect(await delivered.textContent()).to.include(`${receiver.url} answered HTTP 200`);
      expect(receiver.rejected).to.deep.equal([]);
      expect(receiver.events.map((e) => e.type)).to.deep.equal(['message.test']);
      expect(receiver.events[0]).to.include({ tenant_id: tenantId });
      expect(receiver.events[0].data.message.agent_id).to.match(/^agt_/);
      expect(await accessibilityViolations(page)).to.deep.equal([]);

      // The receiver's refusal is shown as it answered.
      receiver.answers.push(503);
      await send.click();
      const refused = page.getByRole('status').filter({ hasText: 'Not delivered' });
      await refused.waitFor();
      expect(await refused.textContent()).to.include(`${receiver.url} answered HTTP 503`);
      expect(receiver.events.map((e) => e.type)).to.deep.equal(['message.test', 'message.test']);
    } finally {
      await receiver.close();
      await app.runtime.ctx.db('agents').where({ id: agentId }).update({ message_webhook_url: null });
    }
  });

  it("shows a viewer no test button on an agent's page", async () => {
    const viewer = await signIn('viewer');
    await viewer.goto(`${app.url}/agents?id=${agentId}`);
    await viewer.getByLabel('System prompt').waitFor();
    expect(await viewer.getByRole('button', { name: 'Send test message' }).count()).to.equal(0);
  });
});
