// The Voice API's error answer as its spec writes it, `{error: {code, message}}`, which the console's
// own API answers too.
import { expect } from 'chai';

type Answer = { status: number; body: any };

/** A Voice API (or console) error: `status`, and a body of nothing but `code` and a message, which matches `message` when given. */
export function expectVoiceError(res: Answer, status: number, code: string, message?: RegExp): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(status);
  expect(res.body).to.have.all.keys('error');
  expect(res.body.error).to.have.all.keys('code', 'message');
  expect(res.body.error.code).to.equal(code);
  expect(res.body.error.message).to.be.a('string').and.not.equal('');
  if (message) expect(res.body.error.message).to.match(message);
}
