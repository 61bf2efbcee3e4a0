import { expect } from 'chai';
import { checksOfOpenApiDocument } from '../../support/openapi.js';

describe('GET /api/v1/openapi.json', () => {
  const served = checksOfOpenApiDocument({
    prefix: '/api/v1',
    cli: ['openapi'],
    file: 'openapi/agent-api.json',
    mounted: ['POST /api/v1/conversations/:conversationId/messages'],
  });

  it('gives 413 to every operation that takes a body, as the API answers a body over 1 MB', () => {
    const withBody = Object.values(served().paths as Record<string, Record<string, any>>).flatMap((ops) =>
      Object.values(ops).filter((op) => op.requestBody),
    );
    expect(withBody).to.not.be.empty;
    for (const op of withBody)
      expect(op.responses['413'].content['application/json'].schema).to.deep.equal({ $ref: '#/components/schemas/Error' });
  });
});
