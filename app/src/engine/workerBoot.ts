// The worker's side shared by the engine workers: loading a worker's wasm
// engine and saying so in the workers' envelope (protocol.ts), once
// 'ready' or 'load-error' naming why, then answering requests
// (serveAfterBoot: the guided-lab worker and the upload worker, which both
// answer with no extra information at start); the worker scope's type (also
// the run worker's). The page's side is workerClient.ts.

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

/**
 * The few members of DedicatedWorkerGlobalScope an engine worker uses (the
 * app compiles against the DOM lib, which does not declare the worker scope).
 */
export interface WorkerScope<To, From> {
  postMessage(msg: From, transfer?: Transferable[]): void;
  onmessage: ((ev: MessageEvent<To>) => void) | null;
}

/** This worker's global scope, typed by what it hears and says. */
export function workerScope<To, From>(): WorkerScope<To, From> {
  return self as unknown as WorkerScope<To, From>;
}

/**
 * A worker that answers requests once its engine is loaded: boot the engine
 * with `init` (bootEngine), then hand each request to `answer` with the
 * means to post. Requests that arrive while it loads wait for it; after a
 * failed load none is answered (the page has the 'load-error').
 */
export function serveAfterBoot<To, From>(init: () => Promise<unknown>, answer: (request: To, post: (msg: From) => void) => void | Promise<void>): void {
  const scope = workerScope<To, From | BootMessage>();
  const post = (msg: From | BootMessage) => scope.postMessage(msg);
  const loaded = bootEngine(init, post);
  scope.onmessage = async (ev: MessageEvent<To>) => {
    if (!(await loaded)) return;
    await answer(ev.data, post);
  };
}
