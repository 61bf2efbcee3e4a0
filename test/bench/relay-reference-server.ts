// The relay benchmark's reference, in a worker thread as the replica is: the least a ConversationRelay
// application does with a prompt. Each final `prompt` asks the model stand-in through the product's
// model client, its tokens streamed back as `text`; no call, no agent, no database. The time it adds
// on this machine (TLS front, sockets, threads, the model client) is what relay.ts subtracts to tell
// what Switchboard itself adds. Any message from the parent closes it.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';
import { WebSocketServer } from 'ws';
import { createModelClient } from '../../pkg/agent/model.js';

const { modelUrl } = workerData as { modelUrl: string };
const model = createModelClient({ baseURL: modelUrl, defaultModel: 'reference' });

const server = createServer();
new WebSocketServer({ server }).on('connection', (socket) => {
  socket.on('message', async (data) => {
    const message = JSON.parse(String(data)) as { type: string; voicePrompt?: string; last?: boolean };
    if (message.type !== 'prompt' || message.last === false) return;
    const stream = await model.stream({
      model: model.defaultModel,
      messages: [{ role: 'user', content: message.voicePrompt ?? '' }],
      stream: true,
    });
    for await (const chunk of stream) {
      const token = chunk.choices[0]?.delta?.content;
      if (token) socket.send(JSON.stringify({ type: 'text', token, last: false }));
    }
    socket.send(JSON.stringify({ type: 'text', token: '', last: true }));
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
parentPort!.once('message', () => {
  server.closeAllConnections();
  server.close(() => parentPort!.close());
});
parentPort!.postMessage({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
