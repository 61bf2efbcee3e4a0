import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { updateTenant } from '../../../pkg/tenants/settings.js';
import { startTestApp, type TestApp } from '../../support/app.js';

interface Answer {
  status: number;
  body: any;
}

/** Every action of a document: a POST on a resource (an id in its path) whose body may be left out, the ids filled with ones that name nothing. */
function actionsOf(doc: any, base: string): string[] {
  return Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, item]) => {
    const post = item.post;
    if (!post || post.requestBody?.required || !path.includes('{')) return [];
    const params = Object.fromEntries((post.parameters ?? []).filter((p: any) => p.in === 'path').map((p: any) => [p.name, p.schema]));
    return [
      base + path.replace(/\{(\w+)\}/g, (_m, name: string) => (params[name]?.format === 'uuid' ? randomUUID() : `${name}_nonexistent`)),
    ];
  });
}

/** POST as `curl -X POST` sends it: no Content-Length, no Content-Type, no body (fetch always sends a Content-Length). */
function postWithoutLength(url: string, path: string, apiKey: string): Promise<Answer> {
  const socket = connect(Number(new URL(url).port), '127.0.0.1');
  socket.write(`POST ${path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${apiKey}\r\nConnection: close\r\n\r\n`);
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  return new Promise((resolve, reject) => {
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head, body] = text.split('\r\n\r\n', 2) as [string, string];
      resolve({ status: Number(head.split(' ')[1]), body: JSON.parse(body) });
    });
  });
}

describe('Action endpoints and their body (DECISIONS.md "Action endpoints and their body")', () => {
  let app: TestApp;
  let apiKey: string;
  let actions: string[];
  before(async () => {
    app = await startTestApp();
    const company = await app.company();
    apiKey = company.apiKey;
    await updateTenant(app.runtime.ctx, company.tenantId, { features: ['voice_api', 'campaigns', 'ai_agents'] });
    const agentDoc = await (await fetch(`${app.url}/api/v1/openapi.json`)).json();
    const voiceDoc = await (await fetch(`${app.url}/v1/openapi.json`)).json();
    actions = [...actionsOf(agentDoc, '/api/v1'), ...actionsOf(voiceDoc, '/v1')];
  });
  after(async () => app.close());

  const post = async (path: string, headers: Record<string, string>, body?: string): Promise<Answer> => {
    const res = await fetch(`${app.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, ...headers }, body });
    return { status: res.status, body: await res.json() };
  };
  /** What an answer says, whatever the ids it names: its status and its error code or, for a success, its fields. */
  const gist = ({ status, body }: Answer) => [
    status,
    body.error?.code ?? (typeof body.error === 'string' ? 'error' : Object.keys(body).sort().join(',')),
  ];

  it('finds the actions without required fields on both APIs in their OpenAPI documents', () => {
    const templates = actions.map((a) => a.replace(/[0-9a-f]{8}-[0-9a-f-]{27}|\w+_nonexistent/g, '{id}'));
    expect(templates).to.include.members([
      '/api/v1/conversations/{id}/end',
      '/api/v1/triggers/{id}/cancel',
      '/v1/calls/{id}/hangup',
      '/v1/campaign-runs/{id}/stop',
      '/v1/campaigns/{id}/runs',
    ]);
  });

  it('answers each action alike with no body, an empty body with or without a JSON Content-Type, or {}', async () => {
    for (const path of actions) {
      const answers = {
        'no Content-Length': await postWithoutLength(app.url, path, apiKey),
        'no body': await post(path, {}),
        'an empty JSON body': await post(path, { 'content-type': 'application/json' }, ''),
        'an empty text body': await post(path, { 'content-type': 'text/plain' }, ''),
        '{}': await post(path, { 'content-type': 'application/json' }, '{}'),
      };
      const first = answers['{}'];
      expect([400, 415, 422], `${path} with {}: ${JSON.stringify(first.body)}`).to.not.include(first.status);
      for (const [how, answer] of Object.entries(answers))
        expect(gist(answer), `${path} with ${how}: ${JSON.stringify(answer.body)}`).to.deep.equal(gist(first));
    }
  });

  it('refuses a body naming a field the action does not take, in its API error shape', async () => {
    for (const path of actions) {
      const res = await post(path, { 'content-type': 'application/json' }, '{"no_such_field":1}');
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).to.equal(400);
      if (path.startsWith('/v1/')) expect(res.body.error.code, path).to.equal('invalid_json');
      expect(JSON.stringify(res.body), path).to.include('no_such_field');
    }
  });

  it('refuses a body sent as another type than JSON, rather than acting as if none was sent', async () => {
    for (const path of actions) {
      const res = await post(path, { 'content-type': 'text/plain' }, '{"no_such_field":1}');
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).to.equal(400);
    }
  });
});
