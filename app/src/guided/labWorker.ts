// A guided-lab module Web Worker: one wasm instance, one call at a time
// (see workerCore.ts for the logic, protocol.ts for the calls and
// ../engine/protocol.ts for the envelope). It
// loads the guided-lab engine (engine-wasm/lab-bindings), a module of its
// own so that the lab page's first load carries only the single-run engine.

import init, * as bindings from './pkg/sawtooth_lab_bindings.js';
import type { LabEngine } from './engineApi';
import type { FromLabWorker, ToLabWorker } from './protocol';
import { handleCall, outcomeMessage } from './workerCore';
import { serveAfterBoot } from '../engine/workerBoot';

// Compile-time check that the built package has the lab API.
const engine: LabEngine = bindings;

serveAfterBoot<ToLabWorker, FromLabWorker>(init, ({ id, call }, post) => {
  if (call.fn === 'run' && call.debug === 'crash') {
    // An uncaught error outside any promise: the page sees the Worker's
    // error event, like a worker that died.
    setTimeout(() => {
      throw new Error('deliberate worker crash requested by debug=crash');
    }, 0);
    return;
  }
  post(outcomeMessage(id, handleCall(engine, call, () => performance.now())));
});
