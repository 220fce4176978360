// The lab's state in one place: the scenario document (what the engine runs,
// what a link or a file shares) plus a few view choices. Serialisable;
// subscribe with useSyncExternalStore. Every edit goes through update(), so
// derived settings (a buffer kept as a fraction of the BDP) stay consistent.

import type { CwndUnit } from '../charts/specs';
import type { Scenario } from '../engine/types';
import { bufferFromBdpFraction, capacityBps } from '../model/path';
import { applyTopology, inferTopology, type Topology } from './topology';

export interface LabView {
  topology: Topology;
  /** The bottleneck buffer as a fraction of the BDP (kept when the path changes); null: set in packets. */
  bufferBdpFraction: number | null;
  cwndUnit: CwndUnit;
  /** Flow whose algorithm the explainer shows (engine order). */
  selectedFlow: number;
  /** The throughput chart's trailing average, ms (0: the raw samples). */
  throughputAverageMs: number;
}

export interface LabState {
  scenario: Scenario;
  view: LabView;
}

export function initialView(s: Scenario): LabView {
  return { topology: inferTopology(s), bufferBdpFraction: null, cwndUnit: 'packets', selectedFlow: 0, throughputAverageMs: 100 };
}

/** Re-derive what depends on other fields (the buffer as a BDP fraction). */
export function normalise(state: LabState): LabState {
  const f = state.view.bufferBdpFraction;
  if (f === null) return state;
  const s = state.scenario;
  const rate = capacityBps(s);
  const buffer = Math.min(1_000_000, bufferFromBdpFraction(f, rate, s.rtt_ms, s.mtu_bytes));
  if (buffer === s.bottleneck.buffer_pkts) return state;
  return { ...state, scenario: { ...s, bottleneck: { ...s.bottleneck, buffer_pkts: buffer } } };
}

export class LabStore {
  private state: LabState;
  private listeners = new Set<() => void>();
  /** The engine's default scenario (reset targets). */
  readonly defaults: Scenario;

  constructor(initial: Scenario, defaults: Scenario) {
    this.defaults = defaults;
    this.state = { scenario: initial, view: initialView(initial) };
  }

  getSnapshot = (): LabState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private set(next: LabState): void {
    const n = normalise(next);
    const flows = n.scenario.hosts.reduce((a, h) => a + h.flows.length, 0);
    const view = n.view.selectedFlow >= flows ? { ...n.view, selectedFlow: 0 } : n.view;
    this.state = view === n.view ? n : { ...n, view };
    for (const l of this.listeners) l();
  }

  update(f: (s: Scenario) => Scenario): void {
    const scenario = f(this.state.scenario);
    if (scenario !== this.state.scenario) this.set({ ...this.state, scenario });
  }

  setView(patch: Partial<LabView>): void {
    this.set({ ...this.state, view: { ...this.state.view, ...patch } });
  }

  setTopology(topology: Topology, streams?: number): void {
    this.set({ scenario: applyTopology(this.state.scenario, topology, streams), view: { ...this.state.view, topology } });
  }

  /** Replace the whole scenario (a link, an uploaded file, a preset). */
  load(scenario: Scenario): void {
    this.set({ scenario, view: { ...this.state.view, topology: inferTopology(scenario), bufferBdpFraction: null } });
  }

  /** Back to the engine's default scenario. */
  reset(): void {
    this.set({ scenario: structuredClone(this.defaults), view: initialView(this.defaults) });
  }
}
