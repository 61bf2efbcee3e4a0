// The mailboxes part of the Voice API contract (DECISIONS.md "Mailboxes and messages").
import { z } from 'zod';
import { parseVoice } from './parse.js';

export const createMailboxBody = z
  .object({
    name: z.string().trim().min(1).max(100),
    greeting: z.string().trim().min(1).max(1000).meta({ description: 'Said to the caller before the beep' }),
  })
  .strict()
  .meta({ id: 'CreateMailboxRequest' });

export const parseCreateMailbox = (body: unknown) => parseVoice(createMailboxBody, body, 'mailbox');

export const mailboxParam = z.object({ id: z.string().meta({ description: 'Mailbox id (mbx_…)' }) });

export const mailboxSchema = z
  .object({ id: z.string(), name: z.string(), greeting: z.string(), created_at: z.string() })
  .meta({ id: 'Mailbox' });

export const mailboxListSchema = z.object({ data: z.array(mailboxSchema) }).meta({ id: 'MailboxList' });
