// The engine's module Web Worker: instantiates the wasm package and runs
// scenarios in slices (see runner.ts for the logic and the protocol).

import init, * as bindings from './pkg/sawtooth_bindings.js';
import type { FromWorker, ToWorker } from './protocol';
import type { RawEngine } from './raw';
import { Runner } from './runner';
import { workerScope } from './workerBoot';

// Compile-time check that the built package matches the facade's view of it.
const engineApi: RawEngine = bindings;

const scope = workerScope<ToWorker, FromWorker>();

// A MessageChannel round trip yields to the event loop without the 4 ms
// clamping of nested setTimeout.
const channel = new MessageChannel();
const waiting: (() => void)[] = [];
channel.port1.onmessage = () => waiting.shift()?.();

const runner = new Runner({
  load: async () => {
    await init();
    return engineApi;
  },
  post: (msg: FromWorker, transfer?: Transferable[]) => scope.postMessage(msg, transfer ?? []),
  yieldToEvents: () =>
    new Promise<void>((resolve) => {
      waiting.push(resolve);
      channel.port2.postMessage(null);
    }),
  now: () => performance.now(),
  // ?debug=crash: an uncaught error outside any promise reaches the page as the
  // Worker's error event, like a worker that died.
  crash: () =>
    setTimeout(() => {
      throw new Error('deliberate worker crash requested by debug=crash');
    }, 0),
  // ?debug=exit: the worker ends itself without an error event; only the
  // client's heartbeat can notice.
  exit: () => (self as unknown as { close(): void }).close(),
});

scope.onmessage = (ev: MessageEvent<ToWorker>) => runner.handle(ev.data);
void runner.start();
