// A carrier's requests to this deployment (Twilio's, or Telnyx's in the same TwiML dialect): the TwiML
// of an answered call, a number's voice webhook, status callbacks, the end of a relay session and of a
// transfer's <Dial>, the routing steps' requests (a menu's answer, a voicemail's recording, a queue's
// wait and members), and the relay socket itself. Each is verified by the carrier's signature (carrier.ts)
// with the carrier account of the tenant whose call or number it names, and refused (403, nothing
// changed) without it.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import { hostname } from 'node:os';
import type { Duplex } from 'node:stream';
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { WebSocketServer, type WebSocket } from 'ws';
import { carrierReachable } from '../../pkg/config.js';
import type { Ctx } from '../../pkg/context.js';
import { callByCarrierSid, callById } from '../../pkg/store/calls/get.js';
import { connectTransfer } from '../../pkg/voice/ai-transfer.js';
import { isLive } from '../../pkg/voice/state.js';
import { relaySocketBase, relayTwiml } from '../../pkg/voice/gateways/carried.js';
import {
  CARRIER_NAMES,
  carrierOf,
  carrierPath,
  carrierUrl,
  type CarrierAccount,
  type CarrierName,
} from '../../pkg/voice/gateways/carrier.js';
import { isSealedAddress } from '../../pkg/voice/gateways/address-seal.js';
import { readRelayToken, relayTokenCall } from '../../pkg/voice/gateways/relay-token.js';
import { carrierCredentials } from '../../pkg/voice/carrier-accounts.js';
import { speechOfCall } from '../../pkg/voice/call-voice.js';
import { findNumber } from '../../pkg/store/phone-numbers.js';
import { hangUp, respond } from '../../pkg/voice/gateways/twiml.js';
import { RelayLeases, RelayLine } from '../../pkg/voice/relay.js';
import { answerCarriedCall } from '../../pkg/voice/routing/carrier-answer.js';
import { answeredOnce, requestOf } from '../../pkg/voice/routing/carrier-repeats.js';
import {
  agentTransferDialled,
  callStatusReported,
  dialAgentTransfer,
  machineReported,
  memberAnswered,
  memberDialled,
  menuAnswered,
  recordingCompleted,
  relaySessionFailed,
  transferDialEnded,
  voicemailRecorded,
  waitInQueue,
} from '../../pkg/voice/routing/carrier-steps.js';
import type { Transfer } from '../../pkg/voice/call-tools.js';

const xml = (res: Response, body: string) => res.type('text/xml').send(body);

/** A query parameter given once, many times or not at all. */
const listed = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : value === undefined ? [] : [String(value)]);

/** The agent's transfer a relay session ended with (its handoffData, see RelayLine.handOff), if any. */
function handedOffTransfer(handoffData: unknown): Transfer | null {
  try {
    const data = JSON.parse(String(handoffData ?? ''));
    return data?.reason === 'transfer' && typeof data.target === 'string'
      ? { target: data.target, name: typeof data.name === 'string' ? data.name : null }
      : null;
  } catch {
    return null;
  }
}

/** The agent's transfer a <Dial>'s request is about, named in its (signed) address. */
const transferOf = (req: Request): Transfer => ({
  target: String(req.query.target ?? ''),
  name: req.query.name === undefined ? null : String(req.query.name),
});

/** null: the request names no tenant, so the deployment's carrier account made it. */
type TenantOfRequest = (ctx: Ctx, req: Request) => Promise<string | null>;

const tenantOfCall = (call: { tenant_id: string } | undefined): string | null => call?.tenant_id ?? null;
/**
 * A placed call's callback URL names the call; a number's (inbound calls) does not, so its CallSid does. Both named,
 * they must be the same call (its sid may not be written yet), so one call's report is never taken for another's.
 */
async function callOf(ctx: Ctx, req: Request) {
  const sid = String(req.body?.CallSid ?? '');
  if (req.query.call === undefined) return callByCarrierSid(ctx.db, sid);
  const call = await callById(ctx.db, String(req.query.call));
  return call && (call.carrier_sid === null || call.carrier_sid === sid) ? call : undefined;
}
const byCall: TenantOfRequest = async (ctx, req) => tenantOfCall(await callOf(ctx, req));
/** A queue member's call, which the carrier dialled for the caller's: it names that call as its parent. */
const byParentCall: TenantOfRequest = async (ctx, req) =>
  tenantOfCall(await callByCarrierSid(ctx.db, String(req.body?.ParentCallSid ?? '')));
const byRelayToken: TenantOfRequest = async (ctx, req) =>
  tenantOfCall(await callById(ctx.db, relayTokenCall(String(req.query.relay ?? ''))));
// An unknown number is checked with the deployment's account: refused alike, it tells a prober nothing.
const byNumber: TenantOfRequest = async (ctx, req) => (await findNumber(ctx.db, String(req.body?.To ?? '')))?.tenantId ?? null;

/** The body as it arrived, which a carrier's signature may cover. */
const rawBodies = new WeakMap<Request, Buffer>();

/**
 * Whether the address of `request` is one Switchboard handed `account`'s carrier: any address, when the carrier's
 * signature covers it; else sealed (carrierAddress), or, on a route the carrier is configured with (`fixed`), bare.
 */
function addressVerified(account: CarrierAccount, url: string, fixed: boolean): boolean {
  const carrier = carrierOf(account);
  return carrier.signsAddresses || isSealedAddress(carrier.relayKey(account), url) || (fixed && !url.includes('?'));
}

/**
 * Verifies the carrier's signature with the carrier account of the tenant the request names, before
 * anything is changed: that tenant and its credentials are in res.locals for the route.
 */
function verified(ctx: Ctx, carrier: CarrierName, tenantOf: TenantOfRequest, fixed: boolean) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const tenantId = await tenantOf(ctx, req);
    const account = await carrierCredentials(ctx, tenantId);
    const request = {
      url: carrierUrl(ctx.config, carrier, req.url),
      headers: req.headers,
      rawBody: rawBodies.get(req) ?? Buffer.alloc(0),
      params: req.body ?? {},
    };
    if (
      account?.carrier === carrier &&
      carrierOf(account).isSigned(account, request, ctx.clock.now()) &&
      addressVerified(account, request.url, fixed)
    ) {
      res.locals.tenantId = tenantId;
      res.locals.account = account;
      return next();
    }
    ctx.log.warn({ path: req.path, carrier }, 'carrier request refused: its signature does not match');
    res.status(403).type('text/plain').send(`The ${carrier} signature does not match`);
  };
}

/** The routes of `carrier`'s requests (mounted at carrierPath(carrier)). */
export function carrierRouter(ctx: Ctx, carrier: CarrierName): Router {
  const r = Router();
  r.use(express.urlencoded({ extended: false, limit: '64kb', verify: (req, _res, body) => void rawBodies.set(req as Request, body) }));
  const signed = (tenantOf: TenantOfRequest) => verified(ctx, carrier, tenantOf, false);
  /** A route the carrier is configured with (a number's voice webhook, its status callback), not only handed by Switchboard. */
  const configured = (tenantOf: TenantOfRequest) => verified(ctx, carrier, tenantOf, true);
  /** The TwiML `answer` makes for a request about the call of its CallSid; a repeat of the call's last request gets the same (answeredOnce). */
  const once = (answer: (req: Request, request: string, known: boolean) => Promise<string>) => async (req: Request, res: Response) => {
    const request = requestOf(req.originalUrl, rawBodies.get(req) ?? Buffer.alloc(0));
    xml(res, await answeredOnce(ctx, String(req.body?.CallSid ?? ''), request, (known) => answer(req, request, known)));
  };

  // The call was answered: connect it to the relay socket, which learns the call from the parameter.
  r.post('/answer', signed(byRelayToken), async (req, res) => {
    const token = String(req.query.relay ?? '');
    const account = res.locals.account as CarrierAccount;
    const read = readRelayToken(carrierOf(account).relayKey(account), token, ctx.clock.now());
    const call = 'refused' in read ? undefined : await callById(ctx.db, read.callId);
    if ('refused' in read || !call) {
      ctx.log.warn({ reason: 'refused' in read ? read.refused : 'no such call' }, 'answered call refused');
      return xml(res, hangUp());
    }
    const machine = String(req.body?.AnsweredBy ?? '').startsWith('machine');
    xml(res, relayTwiml(ctx.config, account, call.tenant_id, token, machine, await speechOfCall(ctx, call)));
  });

  // A call rings in on a number (its voice webhook): answered as the number is routed.
  r.post(
    '/voice',
    configured(byNumber),
    once((req, request, known) => {
      const body = (req.body ?? {}) as Record<string, string>;
      return answerCarriedCall(ctx, {
        to: String(body.To ?? ''),
        from: String(body.From ?? ''),
        callSid: String(body.CallSid ?? ''),
        request,
        known,
      });
    }),
  );

  // A final status the call reached without its relay (busy, no answer, failed, canceled), or its end on the line.
  r.post('/status', configured(byCall), async (req, res) => {
    const call = await callOf(ctx, req);
    if (call) await callStatusReported(ctx, call.id, String(req.body?.CallStatus ?? ''));
    res.status(204).end();
  });

  // Answering-machine detection reported beside the call (Telnyx's AsyncAmdStatusCallback).
  r.post('/machine', signed(byCall), async (req, res) => {
    const call = await callOf(ctx, req);
    if (call) await machineReported(ctx, call, String(req.body?.AnsweredBy ?? ''));
    res.status(204).end();
  });

  // The relay session ended: the agent's transfer is dialled; otherwise (ended, or the socket closed) nothing more is played.
  r.post(
    '/relay-ended',
    signed(byCall),
    once(async (req) => {
      const session = String(req.body?.SessionStatus ?? '');
      const call = await callByCarrierSid(ctx.db, String(req.body?.CallSid ?? ''));
      if (session === 'failed' && call) await relaySessionFailed(ctx, call);
      const transfer = session === 'ended' ? handedOffTransfer(req.body?.HandoffData) : null;
      return transfer && call ? dialAgentTransfer(ctx, call, transfer) : hangUp();
    }),
  );

  // The transfer's target answered (asked on the target's call, which names the caller's as its parent): the call is
  // bridged to it now, ai.transfer answered as on the simulator; the empty document lets the bridge begin.
  r.post('/transfer-answered', signed(byParentCall), async (req, res) => {
    const call = await callByCarrierSid(ctx.db, String(req.body?.ParentCallSid ?? ''));
    if (call) await connectTransfer(ctx, call, transferOf(req));
    xml(res, respond());
  });

  // A transfer step's <Dial> ended; after the caller's hang-up (CallStatus completed) its status callback ends the call.
  r.post(
    '/transfer-step-ended',
    signed(byCall),
    once(async (req) => {
      const body = (req.body ?? {}) as Record<string, string>;
      const call = body.CallStatus === 'completed' ? undefined : await callByCarrierSid(ctx.db, String(body.CallSid ?? ''));
      if (call && isLive(call.status)) await transferDialEnded(ctx, call, String(body.DialCallStatus ?? ''));
      return hangUp();
    }),
  );

  // The transfer's <Dial> ended: ai.transfer says how it went. Answered, the call ends with the bridge; otherwise
  // the caller is reconnected to the agent, on a new relay session of the same call.
  r.post(
    '/transfer-ended',
    signed(byCall),
    once(async (req) => {
      const call = await callByCarrierSid(ctx.db, String(req.body?.CallSid ?? ''));
      const dialled = { dialCallStatus: String(req.body?.DialCallStatus ?? ''), callerLeft: req.body?.CallStatus === 'completed' };
      return call ? agentTransferDialled(ctx, call, transferOf(req), dialled) : hangUp();
    }),
  );

  // A menu's <Gather> ended: with the key or words, or nothing in time.
  r.post(
    '/menu',
    signed(byCall),
    once((req) => {
      const body = (req.body ?? {}) as Record<string, string>;
      return menuAnswered(ctx, String(body.CallSid ?? ''), Number(req.query.attempt ?? 0), {
        digits: body.Digits,
        speech: body.SpeechResult,
      });
    }),
  );

  // A voicemail's <Record> ended; its audio is reported to /recording once stored.
  r.post(
    '/voicemail-recorded',
    signed(byCall),
    once((req) => {
      const body = (req.body ?? {}) as Record<string, string>;
      return voicemailRecorded(
        ctx,
        String(body.CallSid ?? ''),
        Number(body.RecordingDuration ?? 0) || 0,
        body.Digits === 'hangup' || body.CallStatus === 'completed',
      );
    }),
  );

  // https://www.twilio.com/docs/voice/twiml/record#recordingstatuscallback
  r.post('/recording', signed(byCall), async (req, res) => {
    const body = (req.body ?? {}) as Record<string, string>;
    if (body.RecordingStatus === 'completed' && body.RecordingUrl) {
      await recordingCompleted(ctx, {
        callSid: String(body.CallSid ?? ''),
        url: body.RecordingUrl,
        seconds: Number(body.RecordingDuration ?? 0) || 0,
      });
    }
    res.status(204).end();
  });

  // The caller waits in the queue for the next member to ring (`rung`: those rung already).
  r.post(
    '/queue-wait',
    signed(byCall),
    once((req) => waitInQueue(ctx, String(req.body?.CallSid ?? ''), listed(req.query.rung))),
  );

  // The member's phone answered: asked on the member's call, which names the caller's as its parent.
  r.post('/queue-answered', signed(byParentCall), async (req, res) => {
    xml(res, await memberAnswered(ctx, String(req.body?.ParentCallSid ?? ''), String(req.query.member ?? '')));
  });

  // A member's <Dial> ended: talked, rung out, or the caller hung up meanwhile.
  r.post(
    '/queue-dialled',
    signed(byCall),
    once((req) => {
      const body = (req.body ?? {}) as Record<string, string>;
      const dialled = {
        memberId: String(req.query.member ?? ''),
        rung: listed(req.query.rung),
        dialStatus: String(body.DialCallStatus ?? ''),
        callerLeft: body.CallStatus === 'completed',
      };
      return memberDialled(ctx, String(body.CallSid ?? ''), dialled);
    }),
  );
  return r;
}

/** The carrier whose relay socket `pathname` is (`/v1/carrier/<carrier>/relay`), if any. */
const relayCarrier = (pathname: string): CarrierName | undefined =>
  CARRIER_NAMES.find((carrier) => pathname === `${carrierPath(carrier)}/relay`);

/**
 * Whether the handshake of a relay socket comes from `account`'s carrier: signed by it, or, for a carrier that
 * signs no handshake, bringing a good relay parameter in its address (that parameter must then bind the call).
 */
function handshakeVerified(ctx: Ctx, account: CarrierAccount, req: IncomingMessage, requested: URL): boolean {
  const carrier = carrierOf(account);
  if (!carrier.signsAddresses)
    return !('refused' in readRelayToken(carrier.relayKey(account), requested.searchParams.get('relay') ?? '', ctx.clock.now()));
  const url = relaySocketBase(ctx.config, account.carrier) + requested.search;
  return carrier.isSigned(account, { url, headers: req.headers, rawBody: Buffer.alloc(0), params: {} }, ctx.clock.now());
}

/** Serves the relay sockets (wss://<public host>/v1/carrier/<carrier>/relay?tenant=ID…) when a carrier can reach them; returns its stop. */
export function serveRelay(server: Server, ctx: Ctx): () => void {
  if (!carrierReachable(ctx.config)) return () => {};
  const leases = new RelayLeases(
    ctx,
    `${hostname()}:${process.pid}:relay:${randomBytes(4).toString('hex')}`,
    ctx.config.SWITCHBOARD_LEASE_SEC * 1000,
  );
  const sockets = new WebSocketServer({ noServer: true });
  // Sockets this replica holds (bound to a call or not yet): each is a call the agent conducts here.
  let held = 0;
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const requested = new URL(req.url ?? '/', 'http://x');
    const carrier = relayCarrier(requested.pathname);
    if (!carrier) return;
    void (async () => {
      // The URL names the tenant whose carrier account signs the handshake; the signature covers it.
      const tenantId = requested.searchParams.get('tenant');
      const account = tenantId ? await carrierCredentials(ctx, tenantId) : null;
      if (!tenantId || account?.carrier !== carrier || !handshakeVerified(ctx, account, req, requested)) {
        ctx.log.warn({ carrier }, 'relay socket refused: the handshake is not signed by the carrier');
        socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
        return;
      }
      // Full: refused before the handshake, so the load balancer or the carrier tries another replica.
      if (held >= ctx.config.SWITCHBOARD_RELAY_CONCURRENCY) {
        ctx.log.warn({ held }, 'relay socket refused: SWITCHBOARD_RELAY_CONCURRENCY sockets held already');
        socket.end('HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
        return;
      }
      // Counted once the handshake succeeded (ws completes it synchronously: no other socket gets in between).
      sockets.handleUpgrade(req, socket, head, (ws) => {
        held += 1;
        ws.once('close', () => (held -= 1));
        void onSocket(ctx, leases, ws, tenantId, account, requested.searchParams.get('relay'));
      });
    })().catch((err: Error) => {
      ctx.log.error({ err }, 'relay socket failed');
      socket.destroy();
    });
  });
  return () => leases.close();
}

/**
 * The first message binds the socket to its call, once; a socket that cannot be bound is closed. A socket whose
 * address brought a relay parameter (`addressed`) binds that call only.
 */
async function onSocket(
  ctx: Ctx,
  leases: RelayLeases,
  ws: WebSocket,
  tenantId: string,
  account: CarrierAccount,
  addressed: string | null,
): Promise<void> {
  // Every message is kept from the first: what the carrier sends while the call is being bound (a
  // prompt right after setup) is the line's once it exists.
  const received: string[] = [];
  const keep = (data: unknown) => void received.push(String(data));
  ws.on('message', keep);
  const setup = await new Promise<Record<string, unknown> | null>((resolve) => {
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
  if (addressed !== null && params.relay !== addressed) return refuse("the relay parameter is not the socket address's");
  const read = readRelayToken(carrierOf(account).relayKey(account), String(params.relay ?? ''), ctx.clock.now());
  if ('refused' in read) return refuse(read.refused);
  // Only a call of the tenant whose account signed the socket: its token signs no other account's calls. A socket
  // whose handshake is unsigned must also name the carrier's call, so its address alone is not enough.
  const callSid = carrierOf(account).signsAddresses ? undefined : String(setup.callSid ?? '');
  const row = await leases.bind({ id: read.callId, tenantId, session: String(setup.sessionId ?? ''), callSid });
  if (!row) return refuse('the call is not waiting for a relay (used, ended, unknown or of another account)');
  ws.off('message', keep);
  const line = new RelayLine(
    ws,
    ctx,
    account.carrier,
    params.machine === 'true' || row.answered_by_machine,
    row.id,
    row.status,
    received.slice(1),
  );
  await leases.conduct(line, row).catch((err: Error) => ctx.log.error({ err, callId: row.id }, 'relay call failed'));
  if (ws.readyState === ws.OPEN) ws.close(1000);
}
