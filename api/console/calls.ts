// The account's calls in the console: list, a call's page (timeline, result, recordings), live
// changes over SSE, and steer and hang up (members and above) through the Voice API's functions.
import { Router } from 'express';
import type { Ctx } from '../../pkg/context.js';
import { audit } from '../../pkg/console/audit.js';
import { findSession } from '../../pkg/console/sessions.js';
import { CHANNELS } from '../../pkg/db/notify.js';
import { NotFound } from '../../pkg/errors.js';
import { messageView } from '../../pkg/messages/view.js';
import { publicUrl } from '../../pkg/config.js';
import { callById, getCall } from '../../pkg/store/calls/get.js';
import { getTenant, requireFeature } from '../../pkg/store/tenants.js';
import { messagesOfCall } from '../../pkg/store/voice-messages.js';
import { hangupCall, steerCall } from '../../pkg/voice/actions.js';
import { listCallsPage } from '../../pkg/voice/list.js';
import { callTimeline } from '../../pkg/voice/timeline.js';
import { callRecord, callResult } from '../../pkg/voice/views.js';
import { openSse } from '../http/sse.js';
import { listCallsQuery, parseSteer } from '../voice/call-schemas.js';
import { sendRecording } from '../voice/messages.js';
import { parseVoice } from '../voice/parse.js';
import { principalOf, requireSession } from './session.js';

/** How often an idle stream says it is alive and checks the session is still live. */
const HEARTBEAT_MS = 15_000;

export function callsRouter(ctx: Ctx): Router {
  const r = Router();

  r.get('/calls', requireSession(ctx), async (req, res) => {
    const tenant = await getTenant(ctx, principalOf(req).tenantId);
    res.json(await listCallsPage(ctx, tenant, parseVoice(listCallsQuery, req.query, 'query')));
  });

  // Every change of the account's calls, as it is committed (NOTIFY), until the session or the client goes.
  r.get('/calls/stream', requireSession(ctx), async (req, res) => {
    const { tenantId, token } = principalOf(req);
    const stream = openSse(res);
    let pending = Promise.resolve();
    const sessionLive = async () => {
      if (await findSession(ctx, token)) return true;
      stream.end();
      return false;
    };
    const changed = (id: string) => {
      // One at a time, so a call's changes reach the page in the order they were made.
      pending = pending
        .then(async () => {
          if (stream.closed || !(await sessionLive())) return;
          if (id === '') return stream.send({ type: 'resync' });
          const row = await callById(ctx.db, id);
          if (row?.tenant_id === tenantId) stream.send({ type: 'call', call: callRecord(row), result: callResult(row) });
        })
        .catch((err: Error) => ctx.log.warn({ err: err.message }, 'console calls stream failed'));
    };
    const unsubscribe = [
      await ctx.notifier.subscribe(CHANNELS.calls, changed),
      await ctx.notifier.subscribe(CHANNELS.transcripts, changed),
    ];
    // The client may have gone while the subscriptions were made.
    if (stream.closed) {
      for (const stop of unsubscribe) stop();
      return;
    }
    const heartbeat = setInterval(() => {
      pending = pending
        .then(async () => {
          if (!stream.closed && (await sessionLive())) stream.send({ type: 'ping' });
        })
        .catch(() => {});
    }, HEARTBEAT_MS);
    res.on('close', () => {
      clearInterval(heartbeat);
      for (const stop of unsubscribe) stop();
    });
    stream.send({ type: 'ready' });
  });

  r.get('/calls/:id', requireSession(ctx), async (req, res) => {
    const { tenantId } = principalOf(req);
    const row = await getCall(ctx, tenantId, req.params.id as string);
    const base = publicUrl(ctx.config);
    const messages = (await messagesOfCall(ctx, row.id)).map((m) => messageView(m, base));
    res.json({ call: callRecord(row), result: callResult(row), timeline: await callTimeline(ctx, row), messages });
  });

  r.get('/calls/:id/messages/:messageId/recording', requireSession(ctx), async (req, res) => {
    const { tenantId } = principalOf(req);
    const row = await getCall(ctx, tenantId, req.params.id as string);
    const message = (await messagesOfCall(ctx, row.id)).find((m) => m.id === req.params.messageId);
    if (!message) throw new NotFound(`Call ${row.id} has no message ${req.params.messageId}`);
    await sendRecording(ctx, res, tenantId, message.id);
  });

  r.post('/calls/:id/steer', requireSession(ctx, 'member'), async (req, res) => {
    const p = principalOf(req);
    requireFeature(await getTenant(ctx, p.tenantId), 'voice_api');
    const steering = parseSteer(req.body);
    const call = await steerCall(ctx, p.tenantId, req.params.id as string, steering);
    await audit(ctx, p, 'call.steered', call.id, steering);
    res.status(202).json({ call_id: call.id, accepted: true });
  });

  r.post('/calls/:id/hangup', requireSession(ctx, 'member'), async (req, res) => {
    const p = principalOf(req);
    const call = await hangupCall(ctx, p.tenantId, req.params.id as string);
    await audit(ctx, p, 'call.hung_up', call.id);
    res.json({ call: callRecord(call) });
  });

  return r;
}
