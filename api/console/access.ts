// The account's access and delivery settings in the console: API keys, webhook addresses and secret,
// the carrier (read only) and the do-not-call list. Same domain functions as the Voice API and
// `switchboard admin`; the account is the session's. Credentials and the webhook secret need admin.
import { Router } from 'express';
import { z } from 'zod';
import type { Ctx } from '../../pkg/context.js';
import { audit, type Actor } from '../../pkg/console/audit.js';
import { addDoNotCall, listDoNotCall, removeDoNotCall } from '../../pkg/store/do-not-call.js';
import { createKey, listKeys, revokeKey } from '../../pkg/store/keys.js';
import { getTenant, type Tenant } from '../../pkg/store/tenants.js';
import { updateTenant } from '../../pkg/tenants/settings.js';
import { NotFound, Unprocessable } from '../../pkg/errors.js';
import { carrierSettings } from '../../pkg/voice/carrier-accounts.js';
import { requireE164, toE164 } from '../../pkg/voice/numbers.js';
import { rotateWebhookSecret, webhookSecret } from '../../pkg/webhooks/secret.js';
import { sendTestMessage } from '../../pkg/webhooks/test-message.js';
import { parseVoice } from '../voice/parse.js';
import { keyView } from '../voice/tenant.js';
import { createKeyBody } from '../voice/tenant-schemas.js';
import { principalOf, requireSession } from './session.js';
import { testMessageAnswer } from './test-message.js';

const webhooksBody = z
  .object({ events_url: z.string().max(2000).optional(), message_webhook_url: z.string().max(2000).optional() })
  .strict();

const dncBody = z.object({ number: z.string().trim().min(1).max(40), reason: z.string().trim().max(200).optional() }).strict();

const webhooksView = (t: Tenant) => ({ events_url: t.eventsUrl, message_webhook_url: t.messageWebhookUrl });

/** Runs `change` and writes its audit entry in one transaction. */
async function audited<T>(
  ctx: Ctx,
  actor: Actor,
  change: (c: Ctx) => Promise<T>,
  entry: (result: T) => [string, string | null, Record<string, unknown>?],
): Promise<T> {
  return ctx.db.transaction(async (trx) => {
    const c = { ...ctx, db: trx };
    const result = await change(c);
    const [action, target, details] = entry(result);
    await audit(c, actor, action, target, details);
    return result;
  });
}

export function accessRouter(ctx: Ctx): Router {
  const r = Router();

  r.get('/keys', requireSession(ctx, 'viewer'), async (req, res) => {
    res.json({ keys: (await listKeys(ctx, principalOf(req).tenantId)).map(keyView) });
  });

  r.post('/keys', requireSession(ctx, 'admin'), async (req, res) => {
    const me = principalOf(req);
    const { name } = parseVoice(createKeyBody, req.body, 'name');
    const { key, apiKey } = await audited(
      ctx,
      me,
      (c) => createKey(c, me.tenantId, name),
      ({ key }) => ['key.created', key.id, { name }],
    );
    res.status(201).json({ key: keyView(key), secret: apiKey });
  });

  r.delete('/keys/:id', requireSession(ctx, 'admin'), async (req, res) => {
    const me = principalOf(req);
    const key = await audited(
      ctx,
      me,
      (c) => revokeKey(c, req.params.id as string, me.tenantId),
      (k) => ['key.revoked', k.id, { name: k.name }],
    );
    res.json({ key: keyView(key) });
  });

  r.get('/webhooks', requireSession(ctx, 'viewer'), async (req, res) => {
    res.json(webhooksView(await getTenant(ctx, principalOf(req).tenantId)));
  });

  r.patch('/webhooks', requireSession(ctx, 'admin'), async (req, res) => {
    const me = principalOf(req);
    const body = parseVoice(webhooksBody, req.body, 'webhooks');
    const tenant = await audited(
      ctx,
      me,
      (c) => updateTenant(c, me.tenantId, { eventsUrl: body.events_url, messageWebhookUrl: body.message_webhook_url }),
      (t) => ['webhooks.changed', t.id, webhooksView(t)],
    );
    res.json(webhooksView(tenant));
  });

  r.post('/webhooks/test-message', requireSession(ctx, 'admin'), async (req, res) => {
    const me = principalOf(req);
    res.json(await testMessageAnswer(ctx, me, 'webhooks.tested', me.tenantId, () => sendTestMessage(ctx, me.tenantId)));
  });

  // Reading the secret is recorded too: it signs every webhook the account receives.
  r.get('/webhooks/secret', requireSession(ctx, 'admin'), async (req, res) => {
    const me = principalOf(req);
    const secret = await webhookSecret(ctx, me.tenantId);
    await audit(ctx, me, 'webhook_secret.revealed', me.tenantId);
    res.json({ secret });
  });

  r.post('/webhooks/secret/rotate', requireSession(ctx, 'admin'), async (req, res) => {
    const me = principalOf(req);
    await audited(
      ctx,
      me,
      (c) => rotateWebhookSecret(c, me.tenantId),
      () => ['webhook_secret.rotated', me.tenantId],
    );
    res.json({ secret: await webhookSecret(ctx, me.tenantId) });
  });

  r.get('/carrier', requireSession(ctx, 'admin'), async (req, res) => {
    res.json(await carrierSettings(ctx, principalOf(req).tenantId));
  });

  r.get('/do-not-call', requireSession(ctx, 'viewer'), async (req, res) => {
    res.json({ numbers: await listDoNotCall(ctx, principalOf(req).tenantId) });
  });

  // Anyone who places calls may stop calls to a number; lifting a do-not-call is an admin's decision.
  r.post('/do-not-call', requireSession(ctx, 'member'), async (req, res) => {
    const me = principalOf(req);
    const body = parseVoice(dncBody, req.body, 'number');
    const { country } = await getTenant(ctx, me.tenantId);
    // A value the body carries is refused as the Voice API refuses one: 422 invalid_<field>.
    const number = toE164(body.number, country);
    if (!number)
      throw new Unprocessable(`number: ${body.number} is not a valid phone number (E.164, or national in ${country})`, 'invalid_number');
    const entry = await audited(
      ctx,
      me,
      (c) => addDoNotCall(c, me.tenantId, number, body.reason ?? null),
      (e) => ['do_not_call.added', e.number],
    );
    res.status(201).json(entry);
  });

  r.delete('/do-not-call/:number', requireSession(ctx, 'admin'), async (req, res) => {
    const me = principalOf(req);
    const { country } = await getTenant(ctx, me.tenantId);
    const number = requireE164(req.params.number as string, country);
    const gone = async (c: Ctx) => {
      if (!(await removeDoNotCall(c, me.tenantId, number))) throw new NotFound(`${number} is not on the do-not-call list`);
    };
    await audited(ctx, me, gone, () => ['do_not_call.removed', number]);
    res.status(204).end();
  });
  return r;
}
