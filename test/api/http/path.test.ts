import { expect } from 'chai';
import { createApp } from '../../../api/server.js';
import { updateTenant } from '../../../pkg/tenants/settings.js';
import { startTestApp, type Client, type TestApp } from '../../support/app.js';
import { mountedRoutes } from '../../support/routes.js';

/** Path segments that are not valid percent-encoded UTF-8, or hold a NUL (which Postgres cannot compare). */
const IMPOSSIBLE_IDS = ['%zz', '%', '%FF%FE', '%00', 'call%00'];

describe('Ids in the path', () => {
  let app: TestApp;
  let client: Client;
  let idRoutes: string[];
  before(async () => {
    app = await startTestApp();
    const company = await app.company();
    client = company.client;
    await updateTenant(app.runtime.ctx, company.tenantId, { features: ['voice_api'] });
    idRoutes = mountedRoutes(createApp(app.runtime.ctx, { limits: app.runtime.limits }).router.stack).filter((r) => r.includes('/:'));
  });
  after(async () => app.close());

  /** Each route of `prefix` with an id, asked for with every impossible id in place of each of its parameters. */
  async function askWithImpossibleIds(prefix: string, expectShape: (body: any) => void): Promise<string[]> {
    const routes = idRoutes.filter((r) => r.split(' ')[1]!.startsWith(`${prefix}/`));
    for (const route of routes) {
      const [method, template] = route.split(' ') as [string, string];
      for (const id of IMPOSSIBLE_IDS) {
        const path = template.replace(/:\w+/g, id);
        const res = await client.request(method, path, ['GET', 'HEAD', 'DELETE'].includes(method) ? undefined : {});
        expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).to.equal(404);
        // A HEAD answer has no body.
        if (method !== 'HEAD') expectShape(res.body);
      }
    }
    return routes;
  }

  it('answers 404 in the Agent API shape on every Agent API route with an id that is not valid percent-encoding or holds a NUL', async () => {
    const routes = await askWithImpossibleIds('/api/v1', (body) => {
      expect(body).to.have.all.keys('error');
      expect(body.error).to.be.a('string').and.not.equal('');
    });
    expect(routes).to.include.members([
      'GET /api/v1/conversations/:conversationId',
      'POST /api/v1/conversations/:conversationId/messages',
      'GET /api/v1/triggers/:triggerId',
    ]);
  });

  it('answers 404 not_found on every Voice API route with an id that is not valid percent-encoding or holds a NUL', async () => {
    const routes = await askWithImpossibleIds('/v1', (body) => {
      expect(body.error.code).to.equal('not_found');
      expect(body.error.message).to.be.a('string').and.not.equal('');
    });
    expect(routes).to.include.members(['GET /v1/calls/:id', 'POST /v1/calls/:id/steer', 'DELETE /v1/tenants/:account_id/api-keys/:key_id']);
  });

  it('answers 404 not_found on every console route with an id that is not valid percent-encoding or holds a NUL', async () => {
    const routes = await askWithImpossibleIds('/console', (body) => {
      expect(body.error.code).to.equal('not_found');
    });
    expect(routes).to.include.members(['GET /console/sign-in/:token', 'PATCH /console/api/users/:id', 'DELETE /console/api/users/:id']);
  });
});
