// Messages from an embedded Sawtooth (embed mode) to the page around it.
//
//   { type: 'sawtooth:ready', version: 1 }                   once, when the engine is loaded
//   { type: 'sawtooth:summary', version: 1, summary, scenario }  after each finished run
//   { type: 'sawtooth:error', version: 1, error }            after a failed run
//
// Target origin: '*' by default (the messages carry only the simulation's
// public inputs and results), or exactly the origin given by ?origin=; none
// at all (null) when ?origin= was not a valid origin (share/view.ts).
// Sawtooth never reads messages from the parent.

import type { EngineError } from '../engine/errors';
import type { RunSummary, Scenario } from '../engine/types';

export const MESSAGE_VERSION = 1;

export type EmbedMessage =
  | { type: 'sawtooth:ready'; version: number }
  | { type: 'sawtooth:summary'; version: number; summary: RunSummary; scenario: Scenario | null }
  | { type: 'sawtooth:error'; version: number; error: EngineError };

export interface ParentLike {
  postMessage(message: unknown, targetOrigin: string): void;
}

/** The parent window when the page is framed, else null. */
export function parentWindow(w: Window = window): ParentLike | null {
  try {
    return w.parent && w.parent !== w ? w.parent : null;
  } catch {
    return null;
  }
}

export class EmbedChannel {
  private readonly parent: ParentLike | null;
  /** null: post nothing (a bad ?origin=). */
  private readonly origin: string | null;
  private readySent = false;
  private lastKey: string | null = null;

  constructor(parent: ParentLike | null, targetOrigin: string | null) {
    this.parent = parent;
    this.origin = targetOrigin;
  }

  private post(msg: EmbedMessage): void {
    if (this.origin === null) return;
    // structuredClone drops anything that is not plain data.
    this.parent?.postMessage(structuredClone(msg), this.origin);
  }

  ready(): void {
    if (this.readySent) return;
    this.readySent = true;
    this.post({ type: 'sawtooth:ready', version: MESSAGE_VERSION });
  }

  /** Post a run's summary once per run (keyed by the run id). */
  summary(runId: number, summary: RunSummary, scenario: Scenario | null): void {
    const key = `s${runId}`;
    if (this.lastKey === key) return;
    this.lastKey = key;
    this.post({ type: 'sawtooth:summary', version: MESSAGE_VERSION, summary, scenario });
  }

  error(runId: number, error: EngineError): void {
    const key = `e${runId}`;
    if (this.lastKey === key) return;
    this.lastKey = key;
    this.post({ type: 'sawtooth:error', version: MESSAGE_VERSION, error });
  }
}
