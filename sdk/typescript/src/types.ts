// Names for the generated types a caller meets most; every other one is under AgentApi / VoiceApi.
import type * as agent from './generated/agent-api.js';
import type * as voice from './generated/voice-api.js';

export type AgentSchemas = agent.components['schemas'];
export type VoiceSchemas = voice.components['schemas'];

export type CreateConversationRequest = AgentSchemas['CreateConversationRequest'];
export type ConversationCreated = AgentSchemas['ConversationCreated'];
export type Conversation = AgentSchemas['Conversation'];
export type EndReply = AgentSchemas['EndReply'];
/** A message to send; `stream` is chosen by calling send() or stream(). */
export type SendMessageRequest = Omit<AgentSchemas['SendMessageRequest'], 'stream'>;
export type MessageReply = AgentSchemas['MessageReply'];
/** One `data:` event of a streamed turn, told apart by `type`. */
export type StreamEvent = AgentSchemas['StreamEvent'];
export type CreateTriggerRequest = AgentSchemas['CreateTriggerRequest'];
export type TriggerAccepted = AgentSchemas['TriggerAccepted'];
export type Trigger = AgentSchemas['Trigger'];
export type TriggerList = AgentSchemas['TriggerList'];
export type TriggerStatus = Trigger['status'];
export type CancelTriggerRequest = AgentSchemas['CancelTriggerRequest'];
export type ReplyTriggerRequest = AgentSchemas['ReplyTriggerRequest'];

export type PlaceCallRequest = VoiceSchemas['PlaceCallRequest'];
export type Call = VoiceSchemas['Call'];
export type CallList = VoiceSchemas['CallList'];
export type ListCallsQuery = NonNullable<voice.operations['listCalls']['parameters']['query']>;
export type CallResult = VoiceSchemas['CallResult'];
export type SteerCallRequest = VoiceSchemas['SteerCallRequest'];
export type SteerAccepted = VoiceSchemas['SteerAccepted'];

/** The JSON bodies a document's `webhooks` section declares, one per event (none for an empty section). */
type Payloads<W> = string extends keyof W
  ? never
  : { [K in keyof W]: W[K] extends { post: { requestBody?: { content: { 'application/json': infer Body } } } } ? Body : never }[keyof W];

/** Every event Switchboard signs and delivers, told apart by `type`. */
export type WebhookEvent = Payloads<agent.webhooks> | Payloads<voice.webhooks>;
export type WebhookEventType = WebhookEvent['type'];
