// Company memory: redacted summaries of ended conversations, searched with Postgres full-text search.
import type { Ctx } from '../context.js';
import { uuid } from '../ids.js';

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;
// 13-19 digits, optionally grouped by spaces or dashes: card-like numbers.
const CARD = /\b(?:\d[ -]?){12,18}\d\b/g;
// Phone-like: an optional +, then 7 or more digits with common separators.
const PHONE = /(?:\+|\b)\d(?:[\s().-]*\d){6,}/g;

/** Remove emails, card-like numbers and phone numbers. */
function redact(text: string): string {
  return text.replace(EMAIL, '[email]').replace(CARD, '[number]').replace(PHONE, '[phone]');
}

export async function addCompanyMemory(
  ctx: Pick<Ctx, 'db' | 'clock'>,
  tenantId: string,
  conversationId: string,
  summary: string,
): Promise<void> {
  await ctx.db('company_memories').insert({
    id: uuid(),
    tenant_id: tenantId,
    conversation_id: conversationId,
    content: redact(summary),
    created_at: ctx.clock.now(),
  });
}

/** Any of the query's words may match (OR), ranked by relevance. */
function anyWordQuery(query: string): string {
  const words = query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.slice(0, 32).join(' | ');
}

export async function searchCompanyMemory(
  ctx: Pick<Ctx, 'db'>,
  tenantId: string,
  query: string,
  limit = 5,
): Promise<{ content: string; createdAt: string }[]> {
  const words = anyWordQuery(query);
  if (!words) return [];
  const rows = await ctx
    .db('company_memories')
    .where({ tenant_id: tenantId })
    .whereRaw(`search @@ to_tsquery('english', ?)`, [words])
    .orderByRaw(`ts_rank(search, to_tsquery('english', ?)) desc, created_at desc`, [words])
    .limit(limit)
    .select('content', 'created_at');
  return rows.map((r) => ({ content: r.content, createdAt: r.created_at.toISOString() }));
}
