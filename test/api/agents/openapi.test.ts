import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Validator } from '@seriousme/openapi-schema-validator';
import { createApp } from '../../../api/server.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { documentedRoutes, mountedRoutes, undeclaredPathParams } from '../../support/routes.js';

const CLI = fileURLToPath(new URL('../../../cmd/switchboard.js', import.meta.url));
const CHECKED_IN = fileURLToPath(new URL('../../../../openapi/agent-api.json', import.meta.url));
describe('GET /api/v1/openapi.json', () => {
  let app: TestApp;
  let doc: any;
  before(async () => {
    app = await startTestApp();
    const res = await app.client().get('/api/v1/openapi.json');
    expect(res.status).to.equal(200);
    doc = res.body;
  });
  after(async () => app.close());

  it('serves a valid OpenAPI 3.1 document without an API key', async () => {
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors, JSON.stringify(result.errors, null, 2)).to.equal(undefined);
    expect(result.valid).to.equal(true);
    expect(validator.version).to.equal('3.1');
  });

  it('documents every route mounted under /api/v1, with its method', () => {
    const express = createApp(app.runtime.ctx, { limits: app.runtime.limits });
    const mounted = mountedRoutes(express.router.stack).filter((r) => r.split(' ')[1]!.startsWith('/api/v1/'));
    expect(mounted).to.include('POST /api/v1/conversations/:conversationId/messages');
    expect(documentedRoutes(doc, '/api/v1')).to.have.members(mounted);
  });

  it('declares each path parameter on every operation of its path', () => {
    expect(undeclaredPathParams(doc)).to.deep.equal([]);
  });

  it('is the document `switchboard openapi` prints (make openapi)', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [CLI, 'openapi']);
    expect(JSON.parse(stdout)).to.deep.equal(doc);
  });

  it('matches the checked-in openapi/agent-api.json (regenerate with make openapi)', () => {
    expect(JSON.parse(readFileSync(CHECKED_IN, 'utf8')), 'openapi/agent-api.json is stale: run make openapi').to.deep.equal(doc);
  });
});
