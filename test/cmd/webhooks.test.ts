import { expect } from 'chai';
import { agentRef } from '../../pkg/ids.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { adminCli, expectSuccess, switchboard } from '../support/cli.js';
import { startReceiver, type Receiver } from '../support/webhooks.js';

// Loopback receivers allowed.
const admin = adminCli({ SWITCHBOARD_OUTBOUND_ALLOW: '127.0.0.1/32' });

describe('switchboard admin: the webhook secret and the message webhook test', function () {
  // Every test spawns the CLI, a full node start; on a busy machine that takes seconds.
  this.timeout(120_000);
  let app: TestApp;
  let receiver: Receiver;
  before(async () => {
    app = await startTestApp();
    receiver = await startReceiver('');
  });
  after(async () => {
    await receiver?.close();
    await app?.close();
  });

  describe('admin tenant show', () => {
    it("includes the account's webhook secret, whsec_ and 32 random bytes in base64, which no API key ever sees", async () => {
      const { tenantId, client } = await app.company();
      // Two first looks at once: both make one, the first write wins, both show it.
      const [first, again] = (
        await Promise.all([admin('tenant', 'show', '--tenant', tenantId), admin('tenant', 'show', '--tenant', tenantId)])
      ).map(expectSuccess);
      expect(first.webhookSecret).to.match(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(Buffer.from(first.webhookSecret.slice('whsec_'.length), 'base64')).to.have.length(32);
      expect(again.webhookSecret).to.equal(first.webhookSecret);

      const res = await client.patch(`/v1/tenants/${tenantId}/settings`, { events_url: '' });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(JSON.stringify(res.body)).not.to.include(first.webhookSecret.slice('whsec_'.length));
    });

    it('without SWITCHBOARD_ENCRYPTION_KEY stores the secret unencrypted and says so, without printing it to the log', async () => {
      const { tenantId } = await app.company();
      const r = await switchboard(['admin', 'tenant', 'show', '--tenant', tenantId, '--json'], {
        SWITCHBOARD_ENCRYPTION_KEY: '',
        SWITCHBOARD_LOG_LEVEL: 'warn',
      });
      const { webhookSecret } = expectSuccess(r);
      expect(r.stderr).to.include('webhook secrets are stored unencrypted');
      expect(r.stderr).not.to.include(webhookSecret.slice('whsec_'.length));
      const { webhook_secret: atRest } = await app.runtime.ctx.db('tenants').where({ id: tenantId }).first();
      expect(atRest).to.equal(webhookSecret);
    });
  });

  describe('admin tenant rotate-webhook-secret', () => {
    it('replaces the secret at once and does not print it', async () => {
      const { tenantId } = await app.company();
      const before = expectSuccess(await admin('tenant', 'show', '--tenant', tenantId)).webhookSecret;
      const rotated = await admin('tenant', 'rotate-webhook-secret', '--tenant', tenantId);
      expect(expectSuccess(rotated)).to.deep.equal({ tenantId, rotated: true });
      expect(rotated.stdout + rotated.stderr).not.to.include(before.slice('whsec_'.length));
      const after = expectSuccess(await admin('tenant', 'show', '--tenant', tenantId)).webhookSecret;
      expect(after)
        .to.match(/^whsec_[A-Za-z0-9+/]{43}=$/)
        .and.not.equal(before);
    });
  });

  describe('admin tenant test-message-webhook', () => {
    it("sends a signed sample message.test to the message webhook now and reports its event id and the receiver's answer", async () => {
      const { tenantId } = await app.company();
      const [shown, updated] = await Promise.all([
        admin('tenant', 'show', '--tenant', tenantId),
        admin('tenant', 'update', '--tenant', tenantId, '--message-webhook-url', receiver.url),
      ]);
      receiver.secret = expectSuccess(shown).webhookSecret;
      expectSuccess(updated);

      const sent = expectSuccess(await admin('tenant', 'test-message-webhook', '--tenant', tenantId));
      expect(sent).to.deep.equal({ eventId: sent.eventId, url: receiver.url, delivered: true, status: 200, error: null });
      expect(receiver.rejected).to.deep.equal([]);
      const event = receiver.events.find((e) => e.id === sent.eventId);
      expect(event).to.include({ type: 'message.test', tenant_id: tenantId });
      expect(event.data.message).to.include({ kind: 'ai_message', status: 'new' });
      expect(event.data.message.id).to.match(/^msg_/);
      expect(event.data.call).to.have.all.keys('id', 'from', 'to', 'created_at');

      receiver.answers.push(500);
      const refused = expectSuccess(await admin('tenant', 'test-message-webhook', '--tenant', tenantId));
      expect(refused).to.include({ delivered: false, status: 500, error: 'the receiver answered HTTP 500' });
      expect(refused.eventId).to.match(/^evt_/).and.not.equal(sent.eventId);
    });

    it("admin agent test-message-webhook sends it to the agent's own message webhook, signed with the account's secret", async () => {
      const { tenantId, agentId } = await app.company();
      const [shown, updated] = await Promise.all([
        admin('tenant', 'show', '--tenant', tenantId),
        admin('agent', 'update', '--agent', agentId, '--message-webhook-url', receiver.url),
      ]);
      receiver.secret = expectSuccess(shown).webhookSecret;
      expectSuccess(updated);

      const sent = expectSuccess(await admin('agent', 'test-message-webhook', '--agent', agentId));
      expect(sent).to.deep.equal({ eventId: sent.eventId, url: receiver.url, delivered: true, status: 200, error: null });
      expect(receiver.rejected).to.deep.equal([]);
      const event = receiver.events.find((e) => e.id === sent.eventId);
      expect(event).to.include({ type: 'message.test', tenant_id: tenantId });
      expect(event.data.message).to.include({ kind: 'ai_message', agent_id: agentRef(agentId), status: 'new' });

      const company = await app.company();
      const r = await admin('agent', 'test-message-webhook', '--agent', company.agentId);
      expect(r.code).to.equal(1);
      expect(r.stderr).to.match(/has no message webhook of its own/);
    });

    it('exits 1 when the account has no message webhook', async () => {
      const { tenantId } = await app.company();
      const r = await admin('tenant', 'test-message-webhook', '--tenant', tenantId);
      expect(r.code).to.equal(1);
      expect(r.stdout).to.equal('');
      expect(r.stderr).to.match(/no message webhook/);
    });
  });
});
