import { expect } from 'chai';
import { checksOfOpenApiDocument } from '../../support/openapi.js';

describe('GET /v1/openapi.json', () => {
  const served = checksOfOpenApiDocument({
    prefix: '/v1',
    cli: ['openapi', 'voice'],
    file: 'openapi/voice-api.json',
    mounted: ['POST /v1/calls', 'DELETE /v1/tenants/:account_id/api-keys/:key_id', 'GET /v1/reports/api-usage.csv'],
  });

  it('describes bodies and replies with the schemas the routes use, and every error in the {error: {code, message}} shape', () => {
    const doc = served();
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

  const operations = () => Object.values(served().paths as Record<string, Record<string, any>>).flatMap((ops) => Object.values(ops));

  it('gives 400 and 422 to every operation with a query, as the API answers a parameter it does not take and text it cannot store', () => {
    const withQuery = operations().filter((op) => op.parameters?.some((p: any) => p.in === 'query'));
    expect(withQuery.length).to.be.at.least(5);
    for (const op of withQuery)
      for (const status of ['400', '422'])
        expect(op.responses[status].content['application/json'].schema).to.deep.equal({ $ref: '#/components/schemas/VoiceError' });
  });

  it('gives 422 to every operation with a body, as the API answers text it cannot store (NUL, a lone surrogate) anywhere in one', () => {
    const withBody = operations().filter((op) => op.requestBody);
    expect(withBody.length).to.be.at.least(10);
    for (const op of withBody)
      expect(op.responses['422'].content['application/json'].schema).to.deep.equal({ $ref: '#/components/schemas/VoiceError' });
  });
});
