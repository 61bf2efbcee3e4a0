import { expect } from 'chai';
import { Writable } from 'node:stream';
import { createLogger } from '../../pkg/log.js';

/** A logger at `info` and the lines it wrote, parsed. */
function capturing() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
      done();
    },
  });
  return { log: createLogger('info', destination), lines };
}

describe('Log lines', () => {
  it('censor secret-bearing fields where they are looked for', () => {
    const { log, lines } = capturing();
    log.info(
      {
        apiKey: 'sk_1',
        tool: { authConfig: { token: 'x' }, token: 't', password: 'p', webhookSecret: 'w', authToken: 'a' },
        call: { tool: { authConfig: 'deep' } },
        req: { headers: { authorization: 'Bearer k', accept: 'json' } },
      },
      'secrets',
    );
    expect(lines[0]).to.deep.include({
      apiKey: '[redacted]',
      tool: { authConfig: '[redacted]', token: '[redacted]', password: '[redacted]', webhookSecret: '[redacted]', authToken: '[redacted]' },
      call: { tool: { authConfig: '[redacted]' } },
      req: { headers: { authorization: '[redacted]', accept: 'json' } },
    });
  });

  it('keep everything else, and leave the logged objects unchanged', () => {
    const { log, lines } = capturing();
    const fields = { requestId: 'r1', nested: { deeper: { token: 'a page token, three levels down' } }, user: { password: 'p' } };
    log.info(fields, 'request');
    expect(lines[0]).to.deep.include({ requestId: 'r1', nested: { deeper: { token: 'a page token, three levels down' } } });
    expect(fields.user.password).to.equal('p');
  });

  it("censor an error's secret fields and keep its message and stack", () => {
    const { log, lines } = capturing();
    const err = Object.assign(new Error('refused'), { token: 't' });
    log.error({ err }, 'failed');
    const logged = lines[0]!.err as Record<string, unknown>;
    expect(logged).to.include({ type: 'Error', message: 'refused', token: '[redacted]' });
    expect(logged.stack).to.be.a('string').and.include('refused');
    expect(err.token).to.equal('t');
  });
});
