import { checksOfOpenApiDocument } from '../../support/openapi.js';

describe('GET /api/v1/openapi.json', () => {
  checksOfOpenApiDocument({
    prefix: '/api/v1',
    cli: ['openapi'],
    file: 'openapi/agent-api.json',
    mounted: ['POST /api/v1/conversations/:conversationId/messages'],
  });
});
