// Contact verification by one-time passcode (DECISIONS.md "Verification"). While the contact of a
// conversation is not verified, a turn of an agent that requires it runs without tools and without
// the contact's memory; the passcode goes to the company's system through a signed
// `contact.verification_requested` webhook, and comes back in the user's next message or through
// POST /api/v1/conversations/{id}/verify. Jobs are never held back.
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import type { Ctx } from '../context.js';
import type { Agent } from '../store/agents.js';
import { getContact } from '../store/contacts.js';
import { getActiveConversation, updateConversation, type Conversation } from '../store/conversations.js';
import { countWrongTries, dropPasscode, isLive, passcodeOf, replacePasscode, sentThisHour, spendPasscode } from '../store/passcodes.js';
import type { Tenant } from '../store/tenants.js';
import { enqueueEvent } from '../webhooks/outbox.js';

const PASSCODE_TTL_MS = 10 * 60_000;
/** Wrong codes a passcode takes; the last spends it, and the next held-back turn sends a new one. */
const MAX_TRIES = 5;
/** Codes one conversation is sent an hour: with MAX_TRIES, at most 25 guesses an hour at a million codes. */
const MAX_CODES_PER_HOUR = 5;

type VerifyCtx = Pick<Ctx, 'db' | 'clock' | 'config' | 'log'>;

/** Whether `agent`'s turns in `c` are held back: it requires a verified contact, and `c`'s is not. */
export const needsVerification = (agent: Agent, c: Conversation): boolean => Boolean(agent.verification?.required) && c.verifiedAt === null;

// Salted with the conversation: a code's hash says nothing about another conversation's.
const hashOf = (conversationId: string, code: string): Buffer => createHash('sha256').update(`${conversationId}:${code}`).digest();

/** A chat turn's `heldBack` (pkg/agent/turn.ts): held back with an agent that needs verification, which asks for a passcode. */
export const holdBackUnverified =
  (ctx: VerifyCtx, tenant: Tenant) =>
  async (agent: Agent, c: Conversation): Promise<boolean> => {
    if (!needsVerification(agent, c)) return false;
    await requestPasscode(ctx, tenant, c);
    return true;
  };

/** Sends the conversation a passcode unless a live one is out already, or it was sent its codes for the hour. */
async function requestPasscode(ctx: VerifyCtx, tenant: Tenant, c: Conversation): Promise<void> {
  const now = ctx.clock.now();
  const current = await passcodeOf(ctx.db, c.id);
  if (isLive(current, now)) return;
  if (sentThisHour(current, now) >= MAX_CODES_PER_HOUR) {
    ctx.log.warn({ tenantId: tenant.id, conversationId: c.id }, 'a conversation was sent its passcodes for the hour; it stays unverified');
    return;
  }
  const passcode = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const expiresAt = new Date(now.getTime() + PASSCODE_TTL_MS);
  const contact = c.contactId === null ? null : await getContact(ctx, tenant.id, c.contactId);
  await ctx.db.transaction(async (trx) => {
    await replacePasscode(trx, c.id, hashOf(c.id, passcode).toString('hex'), expiresAt, now);
    if (!tenant.eventsUrl) {
      ctx.log.warn(
        { tenantId: tenant.id, conversationId: c.id },
        'a verification passcode has no events address to go to; the backend can verify with POST /api/v1/conversations/{id}/verify',
      );
      return;
    }
    await enqueueEvent(ctx, trx, {
      tenantId: tenant.id,
      type: 'contact.verification_requested',
      target: 'events',
      url: tenant.eventsUrl,
      orderingKey: c.id,
      data: {
        conversationId: c.id,
        contactId: c.contactId,
        externalUserId: contact?.externalUserId ?? null,
        passcode,
        expiresAt: expiresAt.toISOString(),
      },
    });
  });
}

/**
 * The conversation after the user's message `text`: verified when it carries the live passcode.
 * Each six digits standing alone is a guess, and each wrong one a try: a message of more guesses
 * than the tries left spends the code unread, so a message full of numbers cannot search for it.
 */
export async function redeemPasscode(ctx: VerifyCtx, c: Conversation, text: string): Promise<Conversation> {
  const guesses = [...new Set(text.match(/(?<!\d)\d{6}(?!\d)/g))];
  if (!guesses.length) return c;
  const now = ctx.clock.now();
  const live = await passcodeOf(ctx.db, c.id);
  if (!isLive(live, now)) return c;
  if (guesses.length > MAX_TRIES - live.tries) {
    await spendPasscode(ctx.db, c.id, now);
    return c;
  }
  const expected = Buffer.from(live.code_hash, 'hex');
  if (guesses.some((code) => timingSafeEqual(hashOf(c.id, code), expected))) return markVerified(ctx, c);
  if ((await countWrongTries(ctx.db, c.id, guesses.length)) >= MAX_TRIES) await spendPasscode(ctx.db, c.id, now);
  return c;
}

/** The company's backend verified the contact itself (POST /api/v1/conversations/{id}/verify). */
export async function verifyConversation(ctx: VerifyCtx, tenant: Tenant, conversationId: string): Promise<Conversation> {
  return markVerified(ctx, await getActiveConversation(ctx, tenant.id, conversationId));
}

function markVerified(ctx: VerifyCtx, c: Conversation): Promise<Conversation> {
  return ctx.db.transaction(async (trx) => {
    const tx = { ...ctx, db: trx };
    await dropPasscode(trx, c.id);
    return updateConversation(tx, c, { verified: true });
  });
}
