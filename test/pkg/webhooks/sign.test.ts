import { expect } from 'chai';
import { newWebhookSecret } from '../../../pkg/webhooks/secret.js';
import { signatureHeaders, standardSignature, verify } from '../../../pkg/webhooks/sign.js';
import { signatureProblem } from '../../support/webhooks.js';

const NOW = new Date('2025-03-01T12:00:00Z');
const ts = Math.floor(NOW.getTime() / 1000);
const body = '{"id":"evt_01JN","type":"call.ended","data":{"to":"+12025550100","note":"Grüße"}}';

describe('Webhook signing (pkg/webhooks/sign)', () => {
  const secret = newWebhookSecret();
  const headers = signatureHeaders(secret, { id: 'evt_01JN', timestamp: ts, body });

  it('carries both signatures, the user agent and the event id, which a receiver written from the spec accepts', () => {
    expect(headers).to.include({
      'user-agent': 'voice-webhooks/1',
      'content-type': 'application/json',
      'x-voice-timestamp': String(ts),
      'webhook-id': 'evt_01JN',
      'webhook-timestamp': String(ts),
    });
    expect(headers['x-voice-signature']).to.match(/^sha256=[0-9a-f]{64}$/);
    expect(headers['webhook-signature']).to.match(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(signatureProblem(secret, headers, body, NOW.getTime())).to.equal(null);
  });

  it('computes the Standard Webhooks signature of the standard test vector', () => {
    const signature = standardSignature(
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      'msg_p5jXN8AQM9LWM0D4loKWxJek',
      1614265330,
      '{"test": 2432232314}',
    );
    expect(signature).to.equal('g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  for (const scheme of ['voice', 'standard'] as const) {
    describe(`verify (${scheme} headers)`, () => {
      it('accepts the raw body as sent, as a string or as bytes, up to 5 minutes from the receiver clock', () => {
        expect(verify(secret, headers, body, { now: NOW, scheme })).to.equal(true);
        expect(verify(secret, headers, Buffer.from(body), { now: NOW, scheme })).to.equal(true);
        expect(verify(secret, headers, body, { now: new Date(NOW.getTime() + 300_000), scheme })).to.equal(true);
        expect(verify(secret, headers, body, { now: new Date(NOW.getTime() - 300_000), scheme })).to.equal(true);
      });

      it('refuses a timestamp more than 5 minutes away, a changed body, another secret and a missing header', () => {
        expect(verify(secret, headers, body, { now: new Date(NOW.getTime() + 301_000), scheme })).to.equal(false);
        expect(verify(secret, headers, body, { now: new Date(NOW.getTime() - 301_000), scheme })).to.equal(false);
        expect(verify(secret, headers, body.replace('Grüße', 'Gruesse'), { now: NOW, scheme })).to.equal(false);
        expect(verify(newWebhookSecret(), headers, body, { now: NOW, scheme })).to.equal(false);
        const signatureHeader = scheme === 'voice' ? 'x-voice-signature' : 'webhook-signature';
        expect(verify(secret, { ...headers, [signatureHeader]: undefined }, body, { now: NOW, scheme })).to.equal(false);
      });
    });
  }

  it('accepts a Standard Webhooks signature list when any v1 entry matches', () => {
    const list = { ...headers, 'webhook-signature': `v1,bm90IGl0 ${headers['webhook-signature']}` };
    expect(verify(secret, list, body, { now: NOW, scheme: 'standard' })).to.equal(true);
  });
});
