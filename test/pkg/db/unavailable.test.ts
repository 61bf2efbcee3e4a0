import { expect } from 'chai';
import { domainErrorOf } from '../../../pkg/db/unavailable.js';

describe('domainErrorOf', () => {
  it('answers 503 with Retry-After when a transaction ends on a connection Postgres cut (pg gives no code)', () => {
    const err = domainErrorOf(new Error('ROLLBACK - Client has encountered a connection error and is not queryable'));
    expect(err?.status).to.equal(503);
    expect(err?.retryAfterSec).to.be.greaterThan(0);
  });

  it('answers 503 when the connection ends mid-query', () => {
    expect(domainErrorOf(new Error('Connection terminated unexpectedly'))?.status).to.equal(503);
  });

  it('leaves an unexpected error unexpected (a 500)', () => {
    expect(domainErrorOf(new Error('boom'))).to.equal(null);
  });
});
