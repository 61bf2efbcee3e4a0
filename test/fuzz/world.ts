// The accounts the fuzz acts in: one it sends from, one whose ids it must never reach, each owning one
// or more of everything an id in a path can name, made through the APIs themselves.
import { expect } from 'chai';
import { agentRef } from '../../pkg/ids.js';
import { insertVoiceMessage } from '../../pkg/store/voice-messages.js';
import { updateTenant } from '../../pkg/tenants/settings.js';
import type { Client, TestApp } from '../support/app.js';

/** Ids by the collection a path names them under (`calls` in /calls/{id}), and the account's keys. */
export interface Account {
  tenantId: string;
  apiKey: string;
  agentId: string;
  /** Its phone numbers (E.164) and contacts (Agent API contact ids). */
  numbers: string[];
  contacts: number[];
  ids: Record<string, string[]>;
}

export interface World {
  /** The account every request is sent as. */
  own: Account;
  /** Another account: any of its ids in a path answers 404 or 403, never its data. */
  other: Account;
  /** A key of the other account, revoked: refused 401 like a wrong one. */
  revokedKey: string;
}

async function created(client: Client, path: string, body: unknown, id = 'id'): Promise<string> {
  const res = await client.post(path, body);
  expect(res.status, `${path}: ${JSON.stringify(res.body)}`).to.be.oneOf([200, 201, 202]);
  return res.body[id];
}

async function account(app: TestApp, n: number): Promise<Account> {
  // Numbers of the simulated network no other test file's accounts own.
  const numbers = [`+1202555${7100 + n * 10}`, `+1202555${7101 + n * 10}`];
  const company = await app.company({ credits: 1e9, numbers });
  // A fuzz run sends thousands of requests a minute from one key: the test account's own limit is raised.
  await updateTenant(app.runtime.ctx, company.tenantId, {
    // Every feature, so no request stops at a feature gate (company memory off answers 503 by the spec).
    features: ['voice_api', 'ai_agents', 'campaigns', 'company_memory'],
    requestsPerMinute: 1_000_000,
  });
  const { client, agentId, tenantId } = company;
  const agent = agentRef(agentId);
  const contact = (await client.post('/api/v1/conversations', { agentId, contact: { externalUserId: `fuzz-${n}` } })).body.contactId;
  const conversations = [
    await created(client, '/api/v1/conversations', { agentId }, 'conversationId'),
    await created(client, '/api/v1/conversations', { agentId }, 'conversationId'),
  ];
  const triggers = [
    await created(client, '/api/v1/triggers', { agentId, task: 'Fuzz seed job' }, 'triggerId'),
    await created(client, `/api/v1/conversations/${conversations[1]}/triggers`, { task: 'Fuzz seed job' }, 'triggerId'),
  ];
  const call = await created(client, '/v1/calls', { to: '+12025550110', task: 'Fuzz seed call' });
  const mailbox = await created(client, '/v1/mailboxes', { name: 'Fuzz', greeting: 'Leave a message.' });
  const message = await insertVoiceMessage(app.runtime.ctx, {
    tenant_id: tenantId,
    call_id: call,
    kind: 'voicemail',
    caller: '+12025550110',
    summary: 'Fuzz seed message',
    details: {},
    agent_id: null,
    duration_sec: 1,
    mailbox_id: mailbox,
  });
  const connection = await created(client, '/v1/connections', { name: 'Fuzz', base_url: 'https://127.0.0.1:9' });
  const campaign = await created(client, '/v1/campaigns', { name: 'Fuzz', connection_id: connection, agent_id: agent });
  const run = await created(client, `/v1/campaigns/${campaign}/runs`, {});
  const keys = [
    await created(client, `/v1/tenants/${tenantId}/api-keys`, { name: 'Fuzz spare' }),
    await created(client, `/v1/tenants/${tenantId}/api-keys`, { name: 'Fuzz spare' }),
  ];
  return {
    tenantId,
    apiKey: company.apiKey,
    agentId,
    numbers,
    contacts: [contact],
    ids: {
      conversations,
      triggers,
      jobs: triggers,
      calls: [call],
      messages: [message.id],
      numbers: numbers.map(encodeURIComponent),
      queues: [await created(client, '/v1/queues', { name: 'Fuzz' })],
      mailboxes: [mailbox],
      tenants: [tenantId],
      // The key the fuzz sends with is not among them: revoking it would end the run.
      'api-keys': keys,
      connections: [connection],
      campaigns: [campaign],
      'campaign-runs': [run],
      agents: [agentId, agent],
    },
  };
}

export async function makeWorld(app: TestApp): Promise<World> {
  const own = await account(app, 0);
  const other = await account(app, 1);
  const revoked = await app.client(other.apiKey).post(`/v1/tenants/${other.tenantId}/api-keys`, { name: 'Revoked' });
  expect((await app.client(other.apiKey).request('DELETE', `/v1/tenants/${other.tenantId}/api-keys/${revoked.body.id}`)).status).to.equal(
    200,
  );
  return { own, other, revokedKey: revoked.body.key };
}
