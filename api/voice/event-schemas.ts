// The webhooks the Voice API sends (spec "Events"), as the `webhooks` of its OpenAPI document: each
// event's envelope and data, so receivers and the SDKs get typed payloads from the one document.
import { z } from 'zod';
import type { ZodOpenApiPathItemObject } from 'zod-openapi';
import { callRecordSchema, callResultSchema } from './call-schemas.js';
import { routingStepSchema } from '../../pkg/voice/routing/steps.js';
import { messageSchema } from './message-schemas.js';

const transcript = z.array(z.strictObject({ speaker: z.enum(['agent', 'caller']), text: z.string() }));

const queueLeft = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    reason: z.enum(['answered', 'hangup', 'max_wait', 'no_agents']),
    answered_by: z.strictObject({ member_id: z.string(), name: z.string() }).optional().meta({ description: 'With reason answered' }),
    wait_sec: z.int(),
  })
  .meta({ description: 'The queue the caller left, why, and how long it waited' });

const aiWith = (field: string, value: z.ZodType) => callRecordSchema.shape.ai.unwrap().extend({ [field]: value });

const transfer = z.strictObject({
  target: z.string().meta({ description: 'E.164' }),
  name: z.string().nullable(),
  status: z.string().meta({ description: 'How the transfer went: dialing, answered, or the status its line ended in' }),
});

const invoiceSchema = z
  .strictObject({
    number: z.string(),
    kind: z.enum(['invoice', 'credit_note']),
    status: z.literal('finalized'),
    tenant_id: z.string(),
    month: z.string().meta({ description: 'YYYY-MM, in the company timezone' }),
    timezone: z.string(),
    period_start: z.string(),
    period_end: z.string(),
    currency: z.string(),
    lines: z.array(
      z.strictObject({
        description: z.string(),
        item: z.enum(['credits', 'call_minutes', 'correction']),
        reference_type: z.string().nullable(),
        agent_id: z.string().nullable(),
        direction: z.string().nullable(),
        quantity: z.number(),
        unit_price: z.int().meta({ description: 'Minor units' }),
        amount: z.int().meta({ description: 'Minor units' }),
      }),
    ),
    total: z.int().meta({ description: 'Minor units' }),
    issued_at: z.string(),
    credits_number: z.string().nullable().meta({ description: 'A credit note: the invoice it corrects' }),
    reason: z.string().nullable(),
    credit_notes: z.array(z.strictObject({ number: z.string(), total: z.int() })),
  })
  .meta({ id: 'Invoice' });

const callMessage = z.strictObject({ id: z.string(), from: z.string(), to: z.string(), created_at: z.string() });
const messageData = z.strictObject({ message: messageSchema, call: callMessage });

interface VoiceEvent {
  type: string;
  /** The component name of the whole envelope. */
  id: string;
  when: string;
  data: z.ZodType;
  /** What the receiver answers, when the answer is read (a routing step's). */
  answer?: z.ZodType;
}

const EVENTS: VoiceEvent[] = [
  {
    type: 'call.initiated',
    id: 'CallInitiatedEvent',
    when: 'A call arrives on a number, or a placed call starts ringing',
    data: callRecordSchema,
  },
  { type: 'call.answered', id: 'CallAnsweredEvent', when: 'The call was answered', data: callRecordSchema },
  {
    type: 'call.updated',
    id: 'CallUpdatedEvent',
    when: "The call reached a new kind of step: handler is the step's type (ai with ai.agent_id, menu, voicemail, queue…)",
    data: callRecordSchema,
  },
  {
    type: 'call.ended',
    id: 'CallEndedEvent',
    when: 'The call is over; status, duration_sec and hangup_cause are final',
    data: callRecordSchema,
  },
  { type: 'queue.entered', id: 'QueueEnteredEvent', when: 'The caller joined a queue (queue.position)', data: callRecordSchema },
  {
    type: 'queue.exited',
    id: 'QueueExitedEvent',
    when: 'The caller left a queue: answered (and by whom) or hung up',
    data: callRecordSchema.extend({ queue: queueLeft }),
  },
  {
    type: 'queue.timeout',
    id: 'QueueTimeoutEvent',
    when: 'The caller waited too long (max_wait) or nobody could take it (no_agents)',
    data: callRecordSchema.extend({ queue: queueLeft }),
  },
  {
    type: 'ai.transfer',
    id: 'AiTransferEvent',
    when: 'The AI agent is transferring the caller, and how it went',
    data: callRecordSchema.extend({ ai: aiWith('transfer', transfer) }),
  },
  {
    type: 'ai.message',
    id: 'AiMessageEvent',
    when: 'The AI agent took a message',
    data: callRecordSchema.extend({
      ai: aiWith('message', z.strictObject({ summary: z.string(), details: z.record(z.string(), z.unknown()) })),
    }),
  },
  {
    type: 'ai.summary',
    id: 'AiSummaryEvent',
    when: "The AI conversation is over: its summary, transcript, outcome, and the agent's result when it ended with one",
    data: callRecordSchema.extend({
      summary: z.string(),
      transcript,
      outcome: z.string(),
      result: callResultSchema.shape.result.unwrap().optional(),
    }),
  },
  {
    type: 'call.result',
    id: 'CallResultEvent',
    when: 'A placed call is final, sent once to its callback_url; data is the call result',
    data: callResultSchema,
  },
  {
    type: 'message.created',
    id: 'MessageCreatedEvent',
    when: 'A new voicemail or AI-taken message, after the call ends',
    data: messageData,
  },
  { type: 'message.test', id: 'MessageTestEvent', when: "The console's test of a message webhook: sample data", data: messageData },
  {
    type: 'invoice.finalized',
    id: 'InvoiceFinalizedEvent',
    when: "A pay-as-you-go company's invoice or credit note was numbered and issued; money in integer minor units",
    data: invoiceSchema,
  },
  {
    type: 'call.routing',
    id: 'CallRoutingEvent',
    when: "A number's webhook routing step asks the customer's system where the call goes; no step within 3 s, and the fallback runs",
    data: callRecordSchema,
    answer: z.object({ step: routingStepSchema }).meta({ id: 'RoutingAnswer' }),
  },
];

// Strict like the replies' schemas: a webhook carries these fields and no others.
const envelope = ({ type, id, data }: VoiceEvent) =>
  z
    .strictObject({
      id: z.string().meta({ description: 'evt_…; the same on every try of this event' }),
      type: z.literal(type),
      created_at: z.string().meta({ description: 'RFC 3339' }),
      tenant_id: z.string().meta({ description: 'The account id' }),
      data,
    })
    .meta({ id });

const DELIVERY =
  'Signed with the account\'s webhook secret: X-Voice-Timestamp and X-Voice-Signature (sha256= hex HMAC of "timestamp.body"), and the Standard Webhooks headers. Answer any 2xx within a few seconds; anything else is retried.';

/** The document's `webhooks`: one POST a event type, its body the envelope. */
export const voiceWebhooks: Record<string, ZodOpenApiPathItemObject> = Object.fromEntries(
  EVENTS.map((event) => [
    event.type,
    {
      post: {
        operationId: event.id.charAt(0).toLowerCase() + event.id.slice(1),
        tags: ['Webhooks'],
        summary: event.when,
        description: DELIVERY,
        requestBody: { required: true, content: { 'application/json': { schema: envelope(event) } } },
        responses: {
          '200': event.answer
            ? { description: 'The step to take', content: { 'application/json': { schema: event.answer } } }
            : { description: 'Any 2xx: received' },
        },
      },
    },
  ]),
);
