// @switchboard/sdk: the Agent API, the Voice API and their webhooks.
export { Calls, Conversations, Jobs, Messages, Switchboard } from './client.js';
export type { AgentClient, RequestOptions, SwitchboardOptions, VoiceClient } from './client.js';
export { AgentApiError, SwitchboardError, VoiceApiError, WaitTimeoutError, WebhookVerificationError } from './errors.js';
export type { AgentErrorBody, VoiceErrorBody } from './errors.js';
export type { Fetch } from './retry.js';
export { verifySignature, verifyWebhook } from './webhooks.js';
export type { VerifyWebhookOptions, WebhookHeaders } from './webhooks.js';
export type * from './types.js';
/** Every type of the Agent API document: `AgentApi.paths`, `AgentApi.components['schemas']`, `AgentApi.webhooks`. */
export type * as AgentApi from './generated/agent-api.js';
/** Every type of the Voice API document. */
export type * as VoiceApi from './generated/voice-api.js';
