// The list request (voice spec "Endpoints the customer implements"): one signed POST to the list
// path with the sign-in header, answered 200 with `{contacts: [...]}` within 30 seconds and 4 MB,
// at most 1,000 contacts. Never retried: any failure is the run's error.
import type { Ctx } from '../context.js';
import { DomainError } from '../errors.js';
import { OutboundError } from '../outbound/client.js';
import type { CampaignRow } from '../store/campaigns/campaigns.js';
import type { ConnectionRow } from '../store/campaigns/connections.js';
import type { RunRow } from '../store/campaigns/runs.js';
import { webhookSecret } from '../webhooks/secret.js';
import { signatureHeaders } from '../webhooks/sign.js';
import { signInHeader } from './connections.js';

export const LIST_LIMITS = { contacts: 1000, bytes: 4 * 1024 * 1024, timeoutMs: 30_000 } as const;

/** Why the list could not be taken; its message is the run's `error`. */
export class ListFailure extends Error {}

type ListCtx = Pick<Ctx, 'db' | 'clock' | 'config' | 'secrets' | 'log' | 'outbound' | 'metrics'>;

async function post(ctx: ListCtx, campaign: CampaignRow, connection: ConnectionRow, run: RunRow): Promise<string> {
  const body = JSON.stringify({
    event: 'campaign.list',
    campaign: { id: campaign.id, name: campaign.name },
    run: { id: run.id, test: run.test },
  });
  try {
    const secret = await webhookSecret(ctx, campaign.tenant_id);
    const timestamp = Math.floor(ctx.clock.now().getTime() / 1000);
    const res = await ctx.outbound.request({
      method: 'POST',
      url: `${connection.base_url}${connection.list_path}`,
      headers: { ...signInHeader(ctx, connection), ...signatureHeaders(secret, { id: `${run.id}.list`, timestamp, body }) },
      body,
      timeoutMs: LIST_LIMITS.timeoutMs,
      followRedirects: false,
      maxBytes: LIST_LIMITS.bytes,
    });
    if (res.status !== 200) throw new ListFailure(`the list request was answered HTTP ${res.status}`);
    if (res.truncated) throw new ListFailure(`the list is over ${LIST_LIMITS.bytes / 1024 / 1024} MB`);
    return res.body;
  } catch (err) {
    if (err instanceof OutboundError) throw new ListFailure(`the list request failed: ${err.message}`);
    if (err instanceof DomainError) throw new ListFailure(err.message);
    throw err;
  }
}

/** The list's entries, as the customer system sent them (each still to be read). */
export async function requestList(ctx: ListCtx, campaign: CampaignRow, connection: ConnectionRow, run: RunRow): Promise<unknown[]> {
  const started = performance.now();
  let result = 'failed';
  try {
    const text = await post(ctx, campaign, connection, run);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new ListFailure('the list is not JSON');
    }
    const contacts = (parsed as { contacts?: unknown } | null)?.contacts;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed) || !Array.isArray(contacts))
      throw new ListFailure('the list is not {contacts: [...]}');
    if (contacts.length > LIST_LIMITS.contacts)
      throw new ListFailure(`the list has ${contacts.length} contacts, more than ${LIST_LIMITS.contacts}`);
    result = 'ok';
    return contacts;
  } finally {
    ctx.metrics.campaignListDuration.observe({ result }, (performance.now() - started) / 1000);
  }
}
