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
const CHECKED_IN = fileURLToPath(new URL('../../../../openapi/voice-api.json', import.meta.url));

describe('GET /v1/openapi.json', () => {
  let app: TestApp;
  let doc: any;
  before(async () => {
    app = await startTestApp();
    const res = await app.client().get('/v1/openapi.json');
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

  it('documents every route mounted under /v1, with its method', () => {
    const express = createApp(app.runtime.ctx, { limits: app.runtime.limits });
    const mounted = mountedRoutes(express.router.stack).filter((r) => r.split(' ')[1]!.startsWith('/v1/'));
    expect(mounted).to.include.members(['POST /v1/calls', 'DELETE /v1/tenants/:account_id/api-keys/:key_id', 'GET /v1/reports/api-usage.csv']);
    expect(documentedRoutes(doc, '/v1')).to.have.members(mounted);
  });

  it('declares each path parameter on every operation of its path', () => {
    expect(undeclaredPathParams(doc)).to.deep.equal([]);
  });

  it('describes bodies and replies with the schemas the routes use, and every error in the {error: {code, message}} shape', () => {
    const schemas = doc.components.schemas;
    expect(schemas.PlaceCallRequest).to.deep.include({ additionalProperties: false, required: ['to'] });
    expect(schemas.CreateApiKeyRequest.properties.name).to.include({ minLength: 1, maxLength: 100 });
    expect(schemas.ApiKeyCreated.required).to.include.members(['id', 'name', 'prefix', 'key', 'created_at']);
    expect(schemas.VoiceError.properties.error.required).to.have.members(['code', 'message']);
    const place = doc.paths['/calls'].post;
    expect(Object.keys(place.responses)).to.include.members(['200', '201', '400', '401', '403', '413', '422', '429', '500']);
    expect(place.parameters.map((p: any) => `${p.in} ${p.name}`)).to.deep.equal(['header Idempotency-Key']);
    expect(doc.paths['/reports/api-usage'].get.parameters.map((p: any) => p.name)).to.have.members(['from', 'to', 'group_by']);
    expect(Object.keys(doc.paths['/reports/api-usage.csv'].get.responses['200'].content)).to.deep.equal(['text/csv']);
  });

  it('is the document `switchboard openapi voice` prints (make openapi)', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [CLI, 'openapi', 'voice']);
    expect(JSON.parse(stdout)).to.deep.equal(doc);
  });

  it('matches the checked-in openapi/voice-api.json (regenerate with make openapi)', () => {
    expect(JSON.parse(readFileSync(CHECKED_IN, 'utf8')), 'openapi/voice-api.json is stale: run make openapi').to.deep.equal(doc);
  });
});
