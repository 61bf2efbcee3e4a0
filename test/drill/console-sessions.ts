// Console use for the fault drills: simulated users each sign in once with their one-time link,
// then read the console's pages over the API replicas in turn; each session keeps the replica it
// was made on and each read the replica that answered it.
import { ConsoleBrowser } from '../support/console.js';
import type { World } from './cluster.js';
import { ask, HANG_MS, type Answer } from './load.js';

/** What the console's pages read. */
const READS = ['/console/api/session', '/console/api/calls', '/console/api/jobs'];

export interface ConsoleSession {
  cookie: string;
  /** The pid of the API replica that made it. */
  madeOn: number;
}

export interface ConsoleRead {
  session: ConsoleSession;
  /** The pid of the API replica asked. */
  on: number;
  answer: Answer;
}

/** Signs in with `link` on the replicas from `first` on, each tried once; null when none made a session. */
async function signIn(world: World, link: string, first: number): Promise<ConsoleSession | null> {
  const replicas = world.deployment.api;
  for (let n = 0; n < replicas.length; n++) {
    const replica = replicas[(first + n) % replicas.length]!;
    const browser = new ConsoleBrowser(replica.url!);
    // A killed replica refuses the connection; the link is still good for the next.
    await browser.openLink(link).catch(() => undefined);
    if (browser.cookie) return { cookie: browser.cookie, madeOn: replica.process.pid };
  }
  return null;
}

/**
 * Tick `i` of the console's use: the first round of ticks signs each of the company's users in once,
 * every later round has each signed-in user read one page, the round's, on the round's replica.
 */
export function consoleUser(world: World, sessions: (ConsoleSession | null)[], reads: ConsoleRead[]) {
  const links = world.company.signInLinks;
  return async (i: number) => {
    const round = Math.floor(i / links.length);
    if (round === 0) return void (sessions[i] = await signIn(world, links[i]!, i));
    const session = sessions[i % links.length];
    if (!session) return;
    const replica = world.deployment.api[round % world.deployment.api.length]!;
    const answer = await ask(replica.url!, null, 'GET', READS[round % READS.length]!, undefined, HANG_MS, {
      cookie: `sb_session=${session.cookie}`,
    });
    reads.push({ session, on: replica.process.pid, answer });
  };
}
