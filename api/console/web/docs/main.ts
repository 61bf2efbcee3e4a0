// /docs/api/: both served OpenAPI documents in Scalar's viewer, with its switch between them.
import { createApiReference } from '@scalar/api-reference';
import '@scalar/api-reference/style.css';

createApiReference('#api-reference', {
  sources: [
    { title: 'Agent API', slug: 'agent-api', url: '/api/v1/openapi.json', agent: { disabled: true } },
    { title: 'Voice API', slug: 'voice-api', url: '/v1/openapi.json', agent: { disabled: true } },
  ],
  // Nothing leaves Switchboard: no web fonts, no proxy, no telemetry, no hosted AI or tools.
  withDefaultFonts: false,
  telemetry: false,
  hideClientButton: true,
  showDeveloperTools: 'never',
});
