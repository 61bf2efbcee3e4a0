// `switchboard sim call`: the simulated phone network rings one of an account's numbers as a caller
// with lines to say and keys to press, as POST /v1/sim/calls does. Prints the call (--json: as JSON).
import { parseArgs } from 'node:util';
import type { Ctx } from '../pkg/context.js';
import { DomainError, Invalid } from '../pkg/errors.js';
import { requireE164 } from '../pkg/voice/numbers.js';
import { ringIn } from '../pkg/voice/routing/arrive.js';
import { callRecord } from '../pkg/voice/views.js';

const USAGE = 'usage: switchboard sim call --to NUMBER --from NUMBER [--line TEXT]... [--press KEYS]... [--json]';

/** `args`: what follows `switchboard sim`. Returns the exit code. */
export async function runSim(ctx: Ctx, args: string[]): Promise<number> {
  if (args[0] !== 'call') {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const { values } = parseArgs({
    args: args.slice(1),
    options: {
      to: { type: 'string' },
      from: { type: 'string' },
      line: { type: 'string', multiple: true },
      press: { type: 'string', multiple: true },
      json: { type: 'boolean' },
    },
    strict: true,
  });
  if (!values.to || !values.from) {
    process.stderr.write(`error: --to and --from are required (${USAGE})\n`);
    return 2;
  }
  const presses = values.press ?? [];
  if (presses.some((keys) => !/^[0-9*#]*$/.test(keys))) {
    process.stderr.write('error: --press takes keys 0-9, * and #\n');
    return 2;
  }
  let call: ReturnType<typeof callRecord>;
  try {
    call = callRecord(
      await ringIn(ctx, {
        to: requireE164(values.to, 'US'),
        from: requireE164(values.from, 'US'),
        caller: { lines: values.line ?? [], presses },
      }),
    );
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    process.stderr.write(`error: ${err.message}\n`);
    return err instanceof Invalid ? 2 : 1;
  }
  process.stdout.write(values.json ? `${JSON.stringify(call, null, 2)}\n` : `${call.id} ringing ${call.to} from ${call.from}\n`);
  return 0;
}
