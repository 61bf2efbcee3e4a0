// Bytes a benchmark's server thread allocates, and where: V8's sampling heap profiler, driven from
// this thread through the inspector's NodeWorker domain, so any worker (a baseline revision's too)
// is measured without its code's help. Objects collected by minor and major GCs stay counted, so the
// profile is every allocation in the window (each sample scaled by V8 to an unbiased estimate), not
// what is still alive; `calibrate` checks that against known allocations. V8's heap only: the
// memory behind ArrayBuffers and Buffers is outside it.
import { once } from 'node:events';
import { Session } from 'node:inspector';
import { setTimeout as sleep } from 'node:timers/promises';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

/** Mean bytes between samples: a turn's few hundred KB gets hundreds of samples. */
const SAMPLING_INTERVAL = 4096;
const ATTACH_TIMEOUT_MS = 10_000;
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

interface CallFrame {
  functionName: string;
  url: string;
  /** The function's first line, 0-based. */
  lineNumber: number;
}
interface ProfileNode {
  callFrame: CallFrame;
  selfSize: number;
  children: ProfileNode[];
}

/** Where bytes were allocated: the innermost JavaScript function with a source (a builtin it called, if any, named beside it). */
export interface AllocationSite {
  site: string;
  bytes: number;
  /** Of all bytes in the window, 0–1. */
  share: number;
}

export interface Allocations {
  bytes: number;
  /** The largest sites, largest first. */
  sites: AllocationSite[];
  /** The same bytes by the package or folder of the innermost function outside Node's own code. */
  modules: AllocationSite[];
}

/** A file's place as a reader finds it: the path in its package, in this repository, or Node's own. */
function placeOf(url: string): { file: string; module: string } {
  const path = url.startsWith('file://') ? fileURLToPath(url) : url;
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(path);
  if (inPackage) return { file: `${inPackage[1]}/${inPackage[2]}`, module: inPackage[1]! };
  if (path.startsWith('node:')) return { file: path, module: 'node' };
  // A baseline revision's build sits in its own worktree: its paths are read from its dist/ on.
  const inDist = /(?:^|\/)dist\/(.*)$/.exec(path.startsWith(ROOT) ? relative(ROOT, path) : path);
  const file = inDist ? inDist[1]! : path;
  return { file, module: file.split('/').slice(0, 2).join('/') };
}

function ranked(bytesBy: Map<string, number>, total: number, top: number): AllocationSite[] {
  return [...bytesBy]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([site, bytes]) => ({ site, bytes: Math.round(bytes), share: Math.round((bytes / total) * 1000) / 1000 }));
}

function summarize(head: ProfileNode, top: number): Allocations {
  const sites = new Map<string, number>();
  const modules = new Map<string, number>();
  let total = 0;
  const add = (map: Map<string, number>, key: string, bytes: number) => map.set(key, (map.get(key) ?? 0) + bytes);
  // `withSource`: the innermost frame with a source; `caller`: the innermost outside Node's own code, whose module asked for the bytes.
  const walk = (node: ProfileNode, withSource: CallFrame | undefined, caller: CallFrame | undefined) => {
    const frame = node.callFrame;
    const here = frame.url ? frame : withSource;
    const asking = frame.url && !frame.url.startsWith('node:') ? frame : caller;
    if (node.selfSize) {
      total += node.selfSize;
      const builtin = frame.url ? '' : ` → ${frame.functionName || '(native)'}`;
      const site = here
        ? `${here.functionName || '(anonymous)'}${builtin} · ${placeOf(here.url).file}:${here.lineNumber + 1}`
        : frame.functionName;
      add(sites, site || '(no source)', node.selfSize);
      add(modules, asking ? placeOf(asking.url).module : 'node (no caller)', node.selfSize);
    }
    for (const child of node.children) walk(child, here, asking);
  };
  walk(head, undefined, undefined);
  return { bytes: Math.round(total), sites: ranked(sites, total, top), modules: ranked(modules, total, top) };
}

export interface AllocationProfiler {
  start(): Promise<void>;
  /** Everything allocated since start, with the `top` largest sites and modules. */
  stop(top?: number): Promise<Allocations>;
  close(): void;
}

/** A profiler of `worker`'s allocations; one window at a time. */
export async function profileAllocations(worker: Worker): Promise<AllocationProfiler> {
  const session = new Session();
  session.connect();
  const post = (method: string, params: object) =>
    new Promise<void>((resolve, reject) => session.post(method, params, (error) => (error ? reject(error) : resolve())));
  const attached = new Promise<string>((resolve) => {
    session.on('NodeWorker.attachedToWorker', ({ params }) => {
      // Its workerId counts the session's workers; the title names the thread.
      if (params.workerInfo.title.startsWith(`[worker ${worker.threadId}]`)) resolve(params.sessionId);
    });
  });
  await post('NodeWorker.enable', { waitForDebuggerOnStart: false });
  // A running worker is reported before enabling answers; one still starting, once it has started.
  const sessionId = await Promise.race([
    attached,
    sleep(ATTACH_TIMEOUT_MS).then(() => {
      throw new Error(`thread ${worker.threadId} did not reach the inspector`);
    }),
  ]);
  let lastId = 0;
  const answers = new Map<number, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();
  session.on('NodeWorker.receivedMessageFromWorker', ({ params }) => {
    if (params.sessionId !== sessionId) return;
    const message = JSON.parse(params.message) as { id?: number; result?: unknown; error?: { message: string } };
    const answer = message.id === undefined ? undefined : answers.get(message.id);
    if (!answer) return;
    answers.delete(message.id!);
    if (message.error) answer.reject(new Error(message.error.message));
    else answer.resolve(message.result);
  });
  // A thread that ends answers nothing more: what it was asked fails rather than waits for good.
  worker.once('exit', () => {
    for (const answer of answers.values()) answer.reject(new Error(`thread ${worker.threadId} ended before it answered`));
    answers.clear();
  });
  const ask = <T>(method: string, params: object = {}) =>
    new Promise<T>((resolve, reject) => {
      const id = ++lastId;
      answers.set(id, { resolve: resolve as (result: unknown) => void, reject });
      post('NodeWorker.sendMessageToWorker', { sessionId, message: JSON.stringify({ id, method, params }) }).catch(reject);
    });
  await ask('HeapProfiler.enable');
  return {
    start: () =>
      ask('HeapProfiler.startSampling', {
        samplingInterval: SAMPLING_INTERVAL,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      }),
    stop: async (top = 12) => summarize((await ask<{ profile: { head: ProfileNode } }>('HeapProfiler.stopSampling')).profile.head, top),
    close: () => session.disconnect(),
  };
}

/** What calibration allocates: objects, arrays and flat strings whose sizes V8's layout gives exactly. */
const KNOWN_MB = 24;
const KNOWN_ALLOCATIONS = `
const { parentPort } = require('node:worker_threads');
const kept = new Array(64);
const text = Buffer.alloc(1000, 120);
// on, not once: the listener keeps the thread alive until the profile has been taken.
parentPort.on('message', (bytes) => {
  let made = 0;
  for (let i = 0; made < bytes; i++) {
    kept[i & 63] = { a: i, b: i, c: i }; // a 24-byte object with 24 bytes of properties
    kept[(i + 1) & 63] = new Array(500).fill(0); // a 32-byte array and its 4,016-byte elements
    kept[(i + 2) & 63] = text.toString('latin1'); // 16 bytes of header and 1,000 characters
    made += 48 + 4048 + 1016;
  }
  parentPort.postMessage(made);
});`;

/** `KNOWN_MB` allocated by a thread of its own and as the profiler reads them: throws if they differ by more than 5%. */
export async function calibrate(): Promise<{ allocatedMB: number; measuredMB: number }> {
  const worker = new Worker(KNOWN_ALLOCATIONS, { eval: true });
  // Asked before it runs, its inspector would not answer.
  await once(worker, 'online');
  const profiler = await profileAllocations(worker);
  try {
    await profiler.start();
    worker.postMessage(KNOWN_MB * 2 ** 20);
    const [made] = (await once(worker, 'message')) as [number];
    const { bytes } = await profiler.stop();
    const mb = (n: number) => Math.round((n / 2 ** 20) * 10) / 10;
    if (Math.abs(bytes - made) > made * 0.05)
      throw new Error(`the allocation profiler read ${mb(bytes)} MB where ${mb(made)} MB were allocated`);
    return { allocatedMB: mb(made), measuredMB: mb(bytes) };
  } finally {
    profiler.close();
    await worker.terminate();
  }
}
