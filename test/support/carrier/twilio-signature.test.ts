// The signature stand-in against Twilio's own published example (the webhooks security guide's
// walk-through, also the vector of twilio-node's spec/validation.spec.js).
import { expect } from 'chai';
import { formParams, isValidTwilioSignature, twilioSignature } from './twilio-signature.js';

const AUTH_TOKEN = '12345';
const URL = 'https://mycompany.com/myapp.php?foo=1&bar=2';
const PARAMS = { CallSid: 'CA1234567890ABCDE', Caller: '+14158675309', Digits: '1234', From: '+14158675309', To: '+18005551212' };
const SIGNATURE = 'RSOYDt4T1cUTdK1PDd93/VVr8B8=';

describe('X-Twilio-Signature (carrier stand-in)', () => {
  it("computes Twilio's documented example signature", () => {
    expect(twilioSignature(AUTH_TOKEN, URL, PARAMS)).to.equal(SIGNATURE);
  });

  it('accepts the documented signature and refuses a wrong, missing or other-token one', () => {
    expect(isValidTwilioSignature(AUTH_TOKEN, SIGNATURE, URL, PARAMS)).to.equal(true);
    expect(isValidTwilioSignature(AUTH_TOKEN, SIGNATURE, URL, { ...PARAMS, Digits: '1235' })).to.equal(false);
    expect(isValidTwilioSignature(AUTH_TOKEN, SIGNATURE, `${URL}&baz=3`, PARAMS)).to.equal(false);
    expect(isValidTwilioSignature('54321', SIGNATURE, URL, PARAMS)).to.equal(false);
    expect(isValidTwilioSignature(AUTH_TOKEN, undefined, URL, PARAMS)).to.equal(false);
    expect(isValidTwilioSignature(AUTH_TOKEN, 'short', URL, PARAMS)).to.equal(false);
  });

  it('signs parameters in name order whatever order the body had', () => {
    const body = 'To=%2B18005551212&From=%2B14158675309&Digits=1234&Caller=%2B14158675309&CallSid=CA1234567890ABCDE';
    expect(twilioSignature(AUTH_TOKEN, URL, formParams(body))).to.equal(SIGNATURE);
  });

  it('signs a WebSocket handshake over its URL alone', () => {
    const url = 'wss://relay.example.com/relay?token=abc';
    expect(twilioSignature(AUTH_TOKEN, url)).to.equal(twilioSignature(AUTH_TOKEN, url, {}));
    expect(isValidTwilioSignature(AUTH_TOKEN, twilioSignature(AUTH_TOKEN, url), url)).to.equal(true);
  });

  it('signs a repeated parameter once per value, values sorted', () => {
    const body = 'StatusCallbackEvent=ringing&StatusCallbackEvent=answered';
    expect(formParams(body)).to.deep.equal({ StatusCallbackEvent: ['ringing', 'answered'] });
    expect(twilioSignature(AUTH_TOKEN, URL, formParams(body))).to.equal(
      twilioSignature(AUTH_TOKEN, `${URL}StatusCallbackEventansweredStatusCallbackEventringing`),
    );
  });
});
