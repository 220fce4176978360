// Loading a worker's wasm engine and saying so in the workers' envelope
// (protocol.ts): once 'ready', or 'load-error' naming why. Shared by the
// guided-lab worker and the upload worker, which both answer with no
// extra information at start.

import type { WorkerMessage } from './protocol';

/** What a worker posts about its engine loading. */
export type BootMessage = Extract<WorkerMessage<null, never>, { type: 'ready' | 'load-error' }>;

/**
 * Instantiate the engine with `init` and post the outcome. Resolves to
 * whether the engine can be used; the worker answers nothing until then.
 */
export function bootEngine(init: () => Promise<unknown>, post: (msg: BootMessage) => void): Promise<boolean> {
  return init().then(
    () => {
      post({ type: 'ready', info: null });
      return true;
    },
    (e: unknown) => {
      const detail = e instanceof Error ? e.message || e.name : String(e);
      post({ type: 'load-error', error: { kind: 'load', message: `the engine failed to load: ${detail}` } });
      return false;
    },
  );
}
