// An in-process stand-in for the module worker: runs the real Runner against
// a given engine, with asynchronous, structured-cloned (and transferring)
// message delivery in both directions, like a real Worker.

import type { WorkerLike } from '../client';
import type { FromWorker, ToWorker } from '../protocol';
import type { RawEngine } from '../raw';
import { Runner } from '../runner';

export interface FakeWorker extends WorkerLike {
  terminated: boolean;
  received: ToWorker[];
}

export function createFakeWorker(engine: RawEngine | (() => Promise<RawEngine>), sliceBudgetMs = 5): FakeWorker {
  const later = (f: () => void) => setTimeout(f, 0);
  // After debug 'exit': messages already posted still arrive, nothing more is heard or said.
  let silent = false;
  const w: FakeWorker = {
    terminated: false,
    received: [],
    onmessage: null,
    onerror: null,
    postMessage(msg: ToWorker) {
      if (w.terminated || silent) return;
      const copy = structuredClone(msg);
      later(() => {
        if (w.terminated) return;
        w.received.push(copy);
        runner.handle(copy);
      });
    },
    terminate() {
      w.terminated = true;
    },
  };
  const runner = new Runner({
    load: typeof engine === 'function' ? engine : async () => engine,
    post: (msg: FromWorker, transfer?: Transferable[]) => {
      if (w.terminated || silent) return;
      const copy = structuredClone(msg, { transfer: transfer as Transferable[] | undefined });
      later(() => {
        if (!w.terminated) w.onmessage?.({ data: copy } as MessageEvent<FromWorker>);
      });
    },
    yieldToEvents: () => new Promise((r) => setTimeout(r, 0)),
    now: () => performance.now(),
    sliceBudgetMs,
    firstSliceNs: 50e6,
    // debug 'exit': from now on the worker neither hears nor speaks, and no error event fires.
    exit: () => {
      silent = true;
    },
  });
  void runner.start();
  return w;
}
