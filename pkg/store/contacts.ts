// A tenant's contacts: bound to conversations for identity and lasting memory.
import { z } from 'zod';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import type { Ctx, DbClock } from '../context.js';
import { Invalid, NotFound } from '../errors.js';
import type { DbRow } from '../db/index.js';

export const contactHintsSchema = z
  .object({
    phone: z.string().min(1).max(64).optional(),
    email: z.email().max(320).optional(),
    externalUserId: z.string().min(1).max(255).optional(),
    name: z.string().min(1).max(200).optional(),
  })
  .strict()
  .meta({ id: 'ContactHints' });
export type ContactHints = z.output<typeof contactHintsSchema>;

interface Contact {
  contactId: number;
  name: string | null;
  phone: string | null;
  email: string | null;
  externalUserId: string | null;
  memory: string | null;
  createdAt: string;
}

const toContact = (r: DbRow): Contact => ({
  contactId: r.id,
  name: r.name,
  phone: r.phone,
  email: r.email,
  externalUserId: r.external_user_id,
  memory: r.memory,
  createdAt: r.created_at.toISOString(),
});

function normalizePhone(phone: string): string {
  const parsed = parsePhoneNumberFromString(phone);
  if (!parsed?.isValid()) {
    throw new Invalid('Invalid contact phone', [
      { path: 'contact.phone', message: 'must be a valid phone number in international format' },
    ]);
  }
  return parsed.number;
}

export async function getContact(ctx: Pick<Ctx, 'db'>, tenantId: string, contactId: number): Promise<Contact> {
  const row = await ctx.db('contacts').where({ id: contactId, tenant_id: tenantId }).first();
  if (!row) throw new NotFound(`Unknown contact ${contactId}`);
  return toContact(row);
}

/**
 * The contact a request names: an explicit contactId of the tenant, or one looked up by hints.
 * externalUserId is the stable key, created once when new; a phone or email alone only finds an
 * existing contact (DECISIONS.md "Contacts from hints"). Returns null for anonymous requests.
 */
export async function resolveContact(
  ctx: DbClock,
  tenantId: string,
  input: { contactId?: number; contact?: ContactHints },
): Promise<number | null> {
  if (input.contactId !== undefined) return (await getContact(ctx, tenantId, input.contactId)).contactId;
  const hints = input.contact;
  if (!hints) return null;
  const phone = hints.phone ? normalizePhone(hints.phone) : undefined;
  if (hints.externalUserId) {
    const now = ctx.clock.now();
    // Insert-or-fetch in one statement so concurrent first requests create exactly one contact.
    const { rows } = await ctx.db.raw(
      `insert into contacts (tenant_id, external_user_id, name, phone, email, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, ?)
       on conflict (tenant_id, external_user_id) do update set updated_at = contacts.updated_at
       returning id`,
      [tenantId, hints.externalUserId, hints.name ?? null, phone ?? null, hints.email ?? null, now, now],
    );
    return rows[0].id;
  }
  if (!phone && !hints.email) return null;
  const found = await ctx
    .db('contacts')
    .where({ tenant_id: tenantId })
    .andWhere((q) => {
      if (phone) q.orWhere({ phone });
      if (hints.email) q.orWhere({ email: hints.email });
    })
    // The oldest: ids are drawn at random, so they do not say which came first.
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .first('id');
  return found?.id ?? null;
}

export async function appendContactMemory(ctx: DbClock, contactId: number, summary: string): Promise<void> {
  await ctx
    .db('contacts')
    .where({ id: contactId })
    .update({
      memory: ctx.db.raw(`right(coalesce(memory || E'\\n', '') || ?, 8000)`, [summary]),
      updated_at: ctx.clock.now(),
    });
}
