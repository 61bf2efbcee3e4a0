// The Agent Conversation API contract as zod schemas: request parsing and the OpenAPI document.
import { z } from 'zod';
import { contactHintsSchema } from '../../pkg/store/contacts.js';
import { customToolSchema } from '../../pkg/tools/custom-tools.js';

const text = (max: number) => z.string().min(1).max(max);
const metadata = z.record(z.string(), z.unknown());
const contactId = z.number().int().positive();

export const createConversationBody = z
  .object({
    agentId: z.uuid().optional(),
    conversationId: z.uuid().optional(),
    contactId: contactId.optional(),
    contact: contactHintsSchema.optional(),
    customSystemMessage: text(8000).optional(),
    metadata: metadata.optional(),
    memoryScope: z.enum(['company']).optional(),
  })
  .strict()
  .meta({ id: 'CreateConversationRequest' });

export const conversationCreated = z
  .object({
    conversationId: z.uuid(),
    contactId: z.number().int().nullable(),
    agentId: z.uuid().nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'ConversationCreated' });

export const sendMessageBody = z
  .object({
    message: text(32000),
    contactId: contactId.optional(),
    customSystemMessage: text(8000).optional(),
    customTools: z.array(customToolSchema).max(10).optional(),
    stream: z.boolean().default(false),
    asHumanReply: z.boolean().default(false),
    memoryScope: z.enum(['company']).optional(),
  })
  .strict()
  .meta({ id: 'SendMessageRequest' });

const usage = z
  .object({ promptTokens: z.number().int(), completionTokens: z.number().int(), totalTokens: z.number().int() })
  .meta({ id: 'Usage' });

/** Present only after asHumanReply: the resumed job, or why resuming it failed. */
const resumeFields = {
  resumedTriggerId: z.uuid().optional(),
  resumedStatus: z.string().optional(),
  resumeError: z.object({ status: z.number().int(), error: z.string() }).meta({ id: 'ResumeError' }).optional(),
};

const assistantMessage = z.object({ role: z.literal('assistant'), content: z.string() });
const handoff = z.object({ roleName: z.string(), greeting: z.string(), agentId: z.uuid() }).meta({ id: 'Handoff' });

export const messageReply = z
  .object({
    conversationId: z.uuid(),
    contactId: z.number().int().nullable(),
    message: assistantMessage,
    messages: z.array(assistantMessage),
    toolCalls: z.array(z.string()),
    usage,
    handoff: handoff.optional(),
    agentId: z.uuid().optional(),
    ...resumeFields,
  })
  .meta({ id: 'MessageReply' });

export const streamEvent = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('content'), content: z.string() }).meta({ id: 'StreamContent' }),
    z.object({ type: z.literal('new_message') }).meta({ id: 'StreamNewMessage' }),
    z.object({ type: z.literal('tool'), name: z.string() }).meta({ id: 'StreamTool' }),
    z.object({ type: z.literal('handoff'), roleName: z.string(), greeting: z.string(), agentId: z.uuid() }).meta({ id: 'StreamHandoff' }),
    z
      .object({ type: z.literal('done'), conversationId: z.uuid(), contactId: z.number().int().nullable(), usage, ...resumeFields })
      .meta({ id: 'StreamDone' }),
    z.object({ type: z.literal('error'), error: z.string() }).meta({ id: 'StreamError' }),
  ])
  .meta({ id: 'StreamEvent', description: 'One `data: <json>` line of the text/event-stream' });

export const metadataBody = z
  .object({ metadata, customSystemMessage: text(8000).optional() })
  .strict()
  .meta({ id: 'ReplaceMetadataRequest' });

export const metadataReply = z.object({ conversationId: z.uuid(), metadata, updatedAt: z.iso.datetime() }).meta({ id: 'MetadataReply' });

export const manualBody = z
  .object({
    message: text(32000),
    // Blank means the default `admin`; more than 120 characters is refused.
    username: z.string().max(120).optional(),
    metadata: metadata.optional(),
  })
  .strict()
  .meta({ id: 'ManualMessageRequest' });

export const manualReply = z
  .object({ conversationId: z.uuid(), messageId: z.uuid(), addedBy: z.string(), timestamp: z.iso.datetime() })
  .meta({ id: 'ManualMessageReply' });

export const readQuery = z.object({ include: z.enum(['all']).optional() }).meta({ id: 'ReadConversationQuery' });

const messageEntry = z
  .object({
    role: z.enum(['user', 'assistant', 'admin', 'system', 'tool']),
    content: z.string(),
    timestamp: z.iso.datetime(),
    metadata: metadata.optional(),
  })
  .meta({ id: 'MessageEntry' });

export const conversationView = z
  .object({
    conversationId: z.uuid(),
    contactId: z.number().int().nullable(),
    agentId: z.uuid().nullable(),
    status: z.enum(['active', 'ended']),
    createdAt: z.iso.datetime(),
    metadata,
    customSystemMessage: z.string().nullable(),
    jobId: z.uuid().nullable(),
    jobStatus: z.string().nullable(),
    messages: z.array(messageEntry),
  })
  .meta({ id: 'Conversation' });

/** Ending takes no fields: no body, an empty one or `{}` (DECISIONS.md "Action endpoints and their body"). */
export const endBody = z.object({}).strict().meta({ id: 'EndConversationRequest' });

export const endReply = z.object({ conversationId: z.uuid(), status: z.literal('ended') }).meta({ id: 'EndReply' });

export const verifyBody = z.object({}).strict().meta({ id: 'VerifyContactRequest' });

export const verifyReply = z
  .object({ conversationId: z.uuid(), contactId: z.number().int().nullable(), verified: z.literal(true), verifiedAt: z.iso.datetime() })
  .meta({
    id: 'VerifyReply',
    description: 'The contact is verified for this conversation: agents that require verification use their tools and contact memory in it',
  });

export const verificationRequested = z
  .object({
    id: z.string().meta({ description: 'The event id, the same on every try' }),
    type: z.literal('contact.verification_requested'),
    created_at: z.iso.datetime(),
    tenant_id: z.string(),
    data: z.object({
      conversationId: z.uuid(),
      contactId: z.number().int().nullable(),
      externalUserId: z.string().nullable(),
      passcode: z
        .string()
        .regex(/^\d{6}$/)
        .meta({ description: 'Deliver it to the user by your own channel; they type it in the conversation' }),
      expiresAt: z.iso.datetime().meta({ description: '10 minutes after it was made; 5 wrong tries spend it and a new one is sent' }),
    }),
  })
  .meta({ id: 'VerificationRequestedEvent' });
