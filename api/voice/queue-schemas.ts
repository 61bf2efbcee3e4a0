// The queues part of the Voice API contract (DECISIONS.md "Queues").
import { z } from 'zod';
import { parseVoice } from './parse.js';

const member = z
  .object({
    id: z.string().min(1).max(64).optional().meta({
      description:
        "Your id for the member (your staff id), kept as given; left out, one is made (mem_…). Give a member's id again when members are replaced to keep its place in the longest-idle order",
    }),
    name: z.string().trim().min(1).max(100),
    phone: z.string().min(1).max(64).meta({ description: "E.164, or national in the account's country" }),
    available: z.boolean().default(true).meta({ description: 'Only available members are rung' }),
  })
  .strict();

const fields = {
  name: z.string().trim().min(1).max(100),
  members: z
    .array(member)
    .max(50)
    .refine((ms) => {
      const given = ms.flatMap((m) => (m.id === undefined ? [] : [m.id]));
      return new Set(given).size === given.length;
    }, 'member ids must be unique')
    .meta({ description: 'Rung longest-idle first' }),
  max_wait_sec: z.int().min(10).max(3600).meta({ description: 'How long a caller waits at most (queue.timeout max_wait)' }),
  hold_message: z.string().min(1).max(1000).nullable().meta({ description: 'Said to the caller on entering the queue' }),
};

export const createQueueBody = z
  .object({
    ...fields,
    members: fields.members.default([]),
    max_wait_sec: fields.max_wait_sec.default(300),
    hold_message: fields.hold_message.optional(),
  })
  .strict()
  .meta({ id: 'CreateQueueRequest' });

export const patchQueueBody = z
  .object({
    name: fields.name.optional(),
    members: fields.members.optional(),
    max_wait_sec: fields.max_wait_sec.optional(),
    hold_message: fields.hold_message.optional(),
  })
  .strict()
  .meta({ id: 'QueuePatch' });

export const parseCreateQueue = (body: unknown) => parseVoice(createQueueBody, body, 'queue');
export const parsePatchQueue = (body: unknown) => parseVoice(patchQueueBody, body, 'queue');

export const queueParam = z.object({ id: z.string().meta({ description: 'Queue id (que_…)' }) });

export const queueSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    members: z.array(z.object({ id: z.string(), name: z.string(), phone: z.string(), available: z.boolean() })),
    max_wait_sec: z.int(),
    hold_message: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Queue' });

export const queueListSchema = z.object({ data: z.array(queueSchema) }).meta({ id: 'QueueList' });
