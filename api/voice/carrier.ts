// Twilio's requests to this deployment (SWITCHBOARD_CARRIER=twilio): the TwiML of an answered call,
// its status callbacks, the end of its relay session, and the relay socket itself. Each is verified
// by X-Twilio-Signature over the public address Twilio was given, and refused (403, nothing
// changed) without it.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import { hostname } from 'node:os';
import type { Duplex } from 'node:stream';
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Ctx } from '../../pkg/context.js';
import { bindRelay, callById } from '../../pkg/store/calls.js';
import { applyCallEvent, ending } from '../../pkg/voice/events.js';
import { carrierPath, carrierUrl } from '../../pkg/voice/gateways/twilio/gateway.js';
import { readRelayToken } from '../../pkg/voice/gateways/twilio/relay-token.js';
import { isTwilioSignature } from '../../pkg/voice/gateways/twilio/signature.js';
import { connectToRelay, hangUp } from '../../pkg/voice/gateways/twilio/twiml.js';
import { RelayLeases, RelayLine } from '../../pkg/voice/relay.js';
import type { CallEvent } from '../../pkg/voice/state.js';

/** How a final CallStatus ends the call (https://www.twilio.com/docs/voice/api/call-resource#call-status-values). */
const FINAL_STATUS: Record<string, { event: CallEvent; cause: string }> = {
  busy: { event: 'busy', cause: 'busy' },
  'no-answer': { event: 'no_answer', cause: 'no-answer' },
  failed: { event: 'fail', cause: 'failed' },
  canceled: { event: 'cancel', cause: 'canceled' },
};

const xml = (res: Response, body: string) => res.type('text/xml').send(body);

function verified(ctx: Ctx) {
  return (req: Request, res: Response, next: NextFunction) => {
    const url = carrierUrl(ctx.config, req.url);
    const params = (req.body ?? {}) as Record<string, string>;
    if (isTwilioSignature(ctx.config.TWILIO_AUTH_TOKEN!, req.get('x-twilio-signature'), url, params)) return next();
    ctx.log.warn({ path: req.path }, 'carrier request refused: X-Twilio-Signature does not match');
    res.status(403).type('text/plain').send('X-Twilio-Signature does not match');
  };
}

export function carrierRouter(ctx: Ctx): Router {
  const r = Router();
  r.use(express.urlencoded({ extended: false, limit: '64kb' }));
  r.use(verified(ctx));

  // The call was answered: connect it to the relay socket, which learns the call from the parameter.
  r.post('/answer', (req, res) => {
    const token = String(req.query.relay ?? '');
    const read = readRelayToken(ctx.config.TWILIO_AUTH_TOKEN!, token, ctx.clock.now());
    if ('refused' in read) {
      ctx.log.warn({ reason: read.refused }, 'answered call refused');
      return xml(res, hangUp());
    }
    const machine = String(req.body?.AnsweredBy ?? '').startsWith('machine') ? 'true' : 'false';
    const relay = carrierUrl(ctx.config, '/relay').replace(/^https:/, 'wss:');
    xml(res, connectToRelay({ url: relay, parameters: { relay: token, machine }, action: carrierUrl(ctx.config, '/relay-ended') }));
  });

  // A final status the call reached without its relay (busy, no answer, failed, canceled), or its end on the line.
  r.post('/status', async (req, res) => {
    const call = await callById(ctx.db, String(req.query.call ?? ''));
    const status = String(req.body?.CallStatus ?? '');
    if (call) {
      const now = ctx.clock.now();
      // Dialling began (call.initiated); a ringing report after it changes nothing more.
      if (status === 'initiated' || status === 'ringing') await applyCallEvent(ctx, call.id, 'ring', { ringing_at: now });
      else if (status === 'completed' && call.status === 'in-progress') {
        await applyCallEvent(ctx, call.id, 'hang_up', ending(call, now, call.direction === 'inbound' ? 'caller_hangup' : 'callee_hangup'));
      } else if (status === 'completed' && call.status === 'ringing') {
        await applyCallEvent(ctx, call.id, 'no_answer', ending(call, now, 'no-answer'));
      } else if (FINAL_STATUS[status]) await applyCallEvent(ctx, call.id, FINAL_STATUS[status].event, ending(call, now, FINAL_STATUS[status].cause));
    }
    res.status(204).end();
  });

  // The relay session ended (the agent ended it, or the socket closed): nothing more is played.
  r.post('/relay-ended', (_req, res) => xml(res, hangUp()));
  return r;
}

/** Serves the relay socket on `server` (wss://<public host>/v1/carrier/twilio/relay) when a carrier is configured; returns its stop. */
export function serveRelay(server: Server, ctx: Ctx): () => void {
  if (ctx.config.SWITCHBOARD_CARRIER === 'sim') return () => {};
  const leases = new RelayLeases(ctx, `${hostname()}:${process.pid}:relay:${randomBytes(4).toString('hex')}`, ctx.config.SWITCHBOARD_LEASE_SEC * 1000);
  const sockets = new WebSocketServer({ noServer: true });
  const path = `${carrierPath}/relay`;
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (new URL(req.url ?? '/', 'http://x').pathname !== path) return;
    const url = carrierUrl(ctx.config, '/relay').replace(/^https:/, 'wss:') + (req.url!.includes('?') ? req.url!.slice(req.url!.indexOf('?')) : '');
    if (!isTwilioSignature(ctx.config.TWILIO_AUTH_TOKEN!, req.headers['x-twilio-signature'] as string | undefined, url)) {
      ctx.log.warn('relay socket refused: X-Twilio-Signature does not match');
      socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(req, socket, head, (ws) => void onSocket(ctx, leases, ws));
  });
  return () => leases.close();
}

/** The first message binds the socket to its call, once; a socket that cannot be bound is closed. */
async function onSocket(ctx: Ctx, leases: RelayLeases, ws: WebSocket): Promise<void> {
  // Every message is kept from the first: what the carrier sends while the call is being bound (a
  // prompt right after setup) is the line's once it exists.
  const received: string[] = [];
  const keep = (data: unknown) => void received.push(String(data));
  ws.on('message', keep);
  const setup = await new Promise<Record<string, any> | null>((resolve) => {
    ws.once('message', () => {
      try {
        resolve(JSON.parse(received[0]!));
      } catch {
        resolve(null);
      }
    });
    ws.once('close', () => resolve(null));
  });
  const refuse = (reason: string) => {
    ctx.log.warn({ reason }, 'relay socket refused');
    ws.close(1008, reason);
  };
  if (setup?.type !== 'setup') return refuse('the first message is not setup');
  const params = (setup.customParameters ?? {}) as Record<string, string>;
  const read = readRelayToken(ctx.config.TWILIO_AUTH_TOKEN!, String(params.relay ?? ''), ctx.clock.now());
  if ('refused' in read) return refuse(read.refused);
  const row = await bindRelay(ctx, read.callId, String(setup.sessionId ?? ''), leases.owner, leases.leaseMs);
  if (!row) return refuse('the call is not waiting for a relay (used, ended or unknown)');
  ws.off('message', keep);
  const line = new RelayLine(ws, ctx, params.machine === 'true', row.id, row.status === 'queued', received.slice(1));
  await leases.conduct(line, row).catch((err: Error) => ctx.log.error({ err, callId: row.id }, 'relay call failed'));
  if (ws.readyState === ws.OPEN) ws.close(1000);
}
