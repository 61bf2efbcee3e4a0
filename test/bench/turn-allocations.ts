// Bytes a turn allocates on the server, non-streamed and streamed, for the working tree and a
// baseline revision measured the same way in one window each: their turns alternate, each in
// conversations made before the window that grow to TURNS_PER_CONVERSATION turns of history.
import { setTimeout as sleep } from 'node:timers/promises';
import { clientFor, type Client } from '../support/app.js';
import { profileAllocations, type AllocationSite, type Allocations } from './allocations.js';
import type { BenchServer } from './server.js';
import type { Thread } from './threads.js';

export interface TurnAllocations {
  turns: number;
  bytesPerTurn: number;
  sites: AllocationSite[];
  modules: AllocationSite[];
}

type Kind = 'nonStreamed' | 'streamed';

const MESSAGE = 'Hi, what can you do?';
/** What the last turn still does after its answer (closing writes) lands inside the window. */
const SETTLE_MS = 100;

async function turn(client: Client, conversationId: string, kind: Kind): Promise<void> {
  const path = `/api/v1/conversations/${conversationId}/messages`;
  if (kind === 'streamed') {
    const res = await client.stream(path, { message: MESSAGE, stream: true });
    const failed = res.events.find((e: { type: string }) => e.type === 'error');
    if (res.status !== 200 || failed) throw new Error(`a streamed turn answered ${res.status}: ${JSON.stringify(failed ?? res.body)}`);
  } else {
    const res = await client.post(path, { message: MESSAGE });
    if (res.status !== 200) throw new Error(`a turn answered ${res.status}: ${JSON.stringify(res.body)}`);
  }
}

const perTurn = (a: Allocations, turns: number): TurnAllocations => ({
  turns,
  bytesPerTurn: Math.round(a.bytes / turns),
  sites: a.sites,
  modules: a.modules,
});

/** Each server's allocations over `turns` turns of each kind. */
export async function measureTurnAllocations(
  servers: Thread<BenchServer>[],
  turns: number,
  turnsPerConversation: number,
): Promise<Record<Kind, TurnAllocations>[]> {
  const clients = servers.map((s) => clientFor(s.ready.url, s.ready.apiKey));
  const profilers = await Promise.all(servers.map((s) => profileAllocations(s.worker)));
  const results: Record<Kind, TurnAllocations>[] = servers.map(() => ({}) as Record<Kind, TurnAllocations>);
  try {
    for (const kind of ['nonStreamed', 'streamed'] as const) {
      const conversations = await Promise.all(
        servers.map(async (s, i) => {
          const ids: string[] = [];
          for (let n = 0; n < Math.ceil(turns / turnsPerConversation); n++) {
            const created = await clients[i]!.post('/api/v1/conversations', { agentId: s.ready.agentId });
            if (created.status !== 201) throw new Error(`creating a conversation answered ${created.status}`);
            ids.push(created.body.conversationId);
          }
          return ids;
        }),
      );
      await Promise.all(profilers.map((p) => p.start()));
      for (let t = 0; t < turns; t++) {
        // Rotating which goes first keeps any from always meeting a warmer machine.
        for (let k = 0; k < servers.length; k++) {
          const i = (t + k) % servers.length;
          await turn(clients[i]!, conversations[i]![Math.floor(t / turnsPerConversation)]!, kind);
        }
      }
      await sleep(SETTLE_MS);
      const profiles = await Promise.all(profilers.map((p) => p.stop()));
      profiles.forEach((p, i) => {
        results[i]![kind] = perTurn(p, turns);
      });
    }
  } finally {
    for (const p of profilers) p.close();
  }
  return results;
}
