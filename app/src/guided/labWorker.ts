// A guided-lab module Web Worker: one wasm instance, one call at a time
// (see workerCore.ts for the logic and protocol.ts for the messages). It
// loads the guided-lab engine (engine-wasm/lab-bindings), a module of its
// own so that the lab page's first load carries only the single-run engine.

import init, * as bindings from './pkg/sawtooth_lab_bindings.js';
import type { LabEngine } from './engineApi';
import type { FromLabWorker, ToLabWorker } from './protocol';
import { errorMessage, handleCall } from './workerCore';

// Compile-time check that the built package has the lab API.
const engine: LabEngine = bindings;

interface WorkerScope {
  postMessage(msg: FromLabWorker): void;
  onmessage: ((ev: MessageEvent<ToLabWorker>) => void) | null;
}
const scope = self as unknown as WorkerScope;

const loaded: Promise<boolean> = init().then(
  () => {
    scope.postMessage({ type: 'ready' });
    return true;
  },
  (e: unknown) => {
    scope.postMessage({ type: 'load-error', message: `the engine failed to load: ${errorMessage(e)}` });
    return false;
  },
);

scope.onmessage = async (ev: MessageEvent<ToLabWorker>) => {
  const msg = ev.data;
  if (msg.type !== 'call') return;
  if (!(await loaded)) return;
  const call = msg.call;
  if (call.fn === 'run' && call.debug === 'crash') {
    // An uncaught error outside any promise: the page sees the Worker's
    // error event, like a worker that died.
    setTimeout(() => {
      throw new Error('deliberate worker crash requested by debug=crash');
    }, 0);
    return;
  }
  const out = handleCall(engine, call, () => performance.now());
  scope.postMessage(
    out.ok ? { type: 'return', id: msg.id, value: out.value, wallMs: out.wallMs } : { type: 'throw', id: msg.id, message: out.message, fatal: out.fatal },
  );
};
