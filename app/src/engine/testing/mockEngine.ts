// A small deterministic stand-in for the wasm engine, for unit tests of the
// facade, the worker runner and the client. It follows the RawSimulation
// contract: column names, column-major sample chunks, event triples,
// validation errors thrown as JSON, and a summary document.

import { LIMITS } from '../generated/defaults';
import { JUMBO_SCENARIO } from './fixture';
import { FLOW_COLUMNS } from '../generated/constants';
import type { RawEngine, RawSimulationLike } from '../raw';
import type { FlowSummary, ResourceEstimate, RunSummary, Scenario } from '../types';

export interface MockOptions {
  /** Throw a WebAssembly.RuntimeError-like trap once now_ns passes this (ns). */
  trapAtNs?: number;
  /** Count of constructed simulations and frees, for leak checks. */
  stats?: { created: number; freed: number; advances: number };
  /** Busy-wait this long in each advance() (a slow engine), per scenario. */
  busyMsPerAdvance?: number | ((s: Scenario) => number);
  /** The browser's budget in the mock's resource model (default 2 GiB, the engine's). */
  browserBudgetBytes?: number;
}

class RuntimeErrorLike extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RuntimeError';
  }
}

export const trapError = (): Error =>
  typeof WebAssembly !== 'undefined' && WebAssembly.RuntimeError ? new WebAssembly.RuntimeError('unreachable') : new RuntimeErrorLike('unreachable');

/** The mock engine's default: the tests' fixed scenario (fixture.ts), shortened to 1 s so mock runs stay small. */
export function defaultMockScenario(): Scenario {
  return { ...structuredClone(JUMBO_SCENARIO), duration_ms: 1000 };
}

/** The mock engine processes one event per simulated microsecond. */
export const MOCK_NS_PER_EVENT = 1000;

/** The mock's resource model: exact for its own event count, samples of 8 bytes per column. */
/** The mock's browser figure: the engine's copies of the samples and the page's, six in all. */
export const MOCK_BROWSER_COPIES = 6;

export function mockEstimate(s: Scenario, browserBudgetBytes = 2 * 2 ** 30): ResourceEstimate {
  const flows = s.hosts.reduce((n, h) => n + h.flows.length, 0);
  const rows = Math.ceil(s.duration_ms / s.sample_interval_ms) + 1;
  const columns = 1 + FLOW_COLUMNS.length * flows + 1 + s.hosts.length;
  const sampleBytes = rows * columns * 8;
  const browserBytes = MOCK_BROWSER_COPIES * sampleBytes + 240;
  return {
    samples_per_flow: rows,
    columns,
    sample_bytes: sampleBytes,
    events: 10,
    event_bytes: 240,
    event_bytes_max: 240,
    recorded_bytes: sampleBytes + 240,
    recorded_bytes_max: sampleBytes + 240,
    budget_bytes: 256 * 2 ** 20,
    data_packets: 0,
    ack_packets: 0,
    probe_packets: 0,
    probe_bytes: 0,
    engine_events: (s.duration_ms * 1e6) / MOCK_NS_PER_EVENT,
    in_flight_packets_max: 0,
    in_flight_bytes_max: 0,
    in_flight_budget_bytes: 2 ** 30,
    browser: {
      engine_recording_bytes: sampleBytes + 240,
      engine_packets_bytes: 0,
      engine_chunk_bytes: sampleBytes,
      chunks_bytes: sampleBytes,
      series_bytes: sampleBytes,
      averages_bytes: 0,
      delivery_index_bytes: 0,
      ghost_bytes: sampleBytes,
      total_bytes: browserBytes,
    },
    browser_bytes_max: browserBytes,
    browser_budget_bytes: browserBudgetBytes,
    browser_refusal:
      browserBytes > browserBudgetBytes
        ? { field: 'sample_interval_ms', value: String(s.sample_interval_ms), message: `${s.sample_interval_ms} ms samples keep ${browserBytes} bytes in the browser (limit ${browserBudgetBytes} bytes in the browser); use ≥ ${s.sample_interval_ms * 2} ms, fewer flows, or a shorter duration_ms` }
        : null,
  };
}

function validate(s: Scenario): { field: string; value: string; message: string }[] {
  const errors = [];
  const [rttMin, rttMax] = LIMITS.rtt_ms;
  if (!(s.rtt_ms >= rttMin && s.rtt_ms <= rttMax)) errors.push({ field: 'rtt_ms', value: String(s.rtt_ms), message: `must be between ${rttMin} and ${rttMax} ms` });
  const [winMin, winMax] = LIMITS.window_bytes;
  s.hosts.forEach((h, hi) =>
    h.flows.forEach((f, fi) => {
      if (!(f.window_bytes >= winMin && f.window_bytes <= winMax))
        errors.push({
          field: `hosts[${hi}].flows[${fi}].window_bytes`,
          value: String(f.window_bytes),
          message: `must be between ${winMin} and ${winMax}`,
        });
    }),
  );
  return errors;
}

/** cwnd of flow f at time t (s): a sawtooth whose period grows with the RTT. */
export function mockCwnd(t: number, f: number, rttMs: number): number {
  const period = 0.1 + rttMs / 100;
  return 10 + f + 90 * ((t % period) / period);
}

const MOCK_FLOW_FIELDS = FLOW_COLUMNS;

export function createMockEngine(opts: MockOptions = {}): RawEngine {
  class MockSimulation implements RawSimulationLike {
    private s: Scenario;
    private now = 0;
    private emitted = 0; // samples emitted so far
    private eventsEmitted = 0;
    private flows: number;
    private hosts: number;
    private freed = false;

    constructor(json: string) {
      const s = JSON.parse(json) as Scenario;
      const errors = validate(s);
      if (errors.length) throw new Error(JSON.stringify({ errors }));
      this.s = s;
      this.flows = s.hosts.reduce((n, h) => n + h.flows.length, 0);
      this.hosts = s.hosts.length;
      if (opts.stats) opts.stats.created++;
    }
    private check() {
      if (this.freed) throw new Error('null pointer passed to rust');
    }
    advance(until: number): boolean {
      this.check();
      if (opts.stats) opts.stats.advances++;
      const busy = typeof opts.busyMsPerAdvance === 'function' ? opts.busyMsPerAdvance(this.s) : (opts.busyMsPerAdvance ?? 0);
      if (busy > 0) {
        const until = performance.now() + busy;
        while (performance.now() < until) {
          // spin
        }
      }
      const end = this.duration_ns();
      this.now = Math.min(Math.max(this.now, until), end);
      if (opts.trapAtNs !== undefined && this.now >= opts.trapAtNs) throw trapError();
      return this.now >= end;
    }
    now_ns() {
      return this.now;
    }
    processed_events() {
      return Math.round(this.now / MOCK_NS_PER_EVENT);
    }
    duration_ns() {
      return this.s.duration_ms * 1e6;
    }
    flow_count() {
      return this.flows;
    }
    sample_columns(): string {
      const cols = ['t_s'];
      for (let i = 0; i < this.flows; i++)
        for (const k of MOCK_FLOW_FIELDS) cols.push(`f${i}.${k}`);
      cols.push('q.bottleneck_pkts');
      for (let h = 0; h < this.hosts; h++) cols.push(`h${h}.ifq_pkts`);
      return JSON.stringify(cols);
    }
    drain_samples(): Float64Array {
      this.check();
      const interval = this.s.sample_interval_ms * 1e6;
      // Samples at k·interval for k·interval <= now.
      const total = Math.floor(this.now / interval + 1e-9) + 1;
      const rows = total - this.emitted;
      const ncols = 1 + this.flows * MOCK_FLOW_FIELDS.length + 1 + this.hosts;
      const out = new Float64Array(ncols * rows);
      for (let r = 0; r < rows; r++) {
        const t = ((this.emitted + r) * interval) / 1e9;
        let c = 0;
        out[c++ * rows + r] = t;
        for (let f = 0; f < this.flows; f++) {
          const cwnd = mockCwnd(t, f, this.s.rtt_ms);
          out[c++ * rows + r] = cwnd;
          out[c++ * rows + r] = cwnd * 8948;
          out[c++ * rows + r] = 64;
          out[c++ * rows + r] = cwnd * 8948;
          out[c++ * rows + r] = 50 * 8948;
          out[c++ * rows + r] = 55 * 8948;
          out[c++ * rows + r] = (cwnd * 8948 * 8) / ((this.s.rtt_ms + 1) / 1000);
          out[c++ * rows + r] = this.s.rtt_ms;
          out[c++ * rows + r] = 0;
        }
        out[c++ * rows + r] = t * 10;
        for (let h = 0; h < this.hosts; h++) out[c++ * rows + r] = h;
      }
      this.emitted = total;
      return out;
    }
    drain_events(): Float64Array {
      this.check();
      // One network-loss event per simulated 100 ms, on flow 0.
      const total = Math.floor(this.now / 1e8);
      const out: number[] = [];
      for (let k = this.eventsEmitted; k < total; k++) out.push((k + 1) * 0.1, 0, k % 5);
      this.eventsEmitted = total;
      return Float64Array.from(out);
    }
    summary_json(): string {
      const bps = 8e8 / (1 + this.s.rtt_ms / 100);
      const flows: FlowSummary[] = Array.from({ length: this.flows }, (_, i) => ({
        flow: i,
        host: 0,
        algorithm: 'reno',
        mean_throughput_bps: bps / this.flows,
        share: 1 / this.flows,
        mean_cwnd_pkts: 50,
        drops: 0,
        ecn_marks: 0,
        local_congestion_events: 0,
        ifq_refusals: 0,
        retransmits: 0,
        retransmission_rate: 0,
        fast_retransmits: 0,
        timeouts: 0,
        time_to_90pct_s: null,
      }));
      const summary: RunSummary = {
        duration_s: this.s.duration_ms / 1000,
        flows,
        hosts: [{ host: 0, mean_throughput_bps: bps }],
        total_throughput_bps: bps,
        capacity_bps: 1e9,
        utilisation: bps / 1e9,
        jain_index: 1,
        bottleneck_drops: 0,
        ecn_marks: 0,
        packets_delivered: 1000,
        events_not_stored: 0,
      };
      return JSON.stringify(summary);
    }
    free() {
      if (!this.freed && opts.stats) opts.stats.freed++;
      this.freed = true;
    }
  }
  return {
    RawSimulation: MockSimulation,
    catalogue_json: () =>
      JSON.stringify([{ id: 'reno', name: 'Standard (Reno)', explanation: '', expect_on_chart: '', increase_tex: '', decrease_tex: '', params: [], citations: [] }]),
    aqm_catalogue_json: () => JSON.stringify([{ kind: 'drop_tail', name: 'Drop-tail (FIFO)', explanation: '', citations: [], params: [] }]),
    default_scenario_json: () => JSON.stringify(defaultMockScenario()),
    profiles_json: () => JSON.stringify({ profiles: [], switches: [] }),
    validate_scenario: (json: string) => JSON.stringify({ errors: validate(JSON.parse(json) as Scenario) }),
    estimate_resources_json: (json: string) => JSON.stringify(mockEstimate(JSON.parse(json) as Scenario, opts.browserBudgetBytes)),
    // Lines of whole numbers only (the engine's rules are tested in engine-wasm).
    read_trace_json: (text: string, name: string) => {
      const lines = text.split('\n').filter((l) => l.trim() !== '');
      const ms = lines.map(Number);
      if (ms.length === 0 || ms.some((x) => !Number.isInteger(x) || x < 0)) {
        return JSON.stringify({ trace: null, mean_bps: 0, errors: [{ field: 'bottleneck.trace', value: '', message: 'is not a trace' }] });
      }
      const trace = { ...(name ? { name } : {}), opportunities_ms: ms };
      return JSON.stringify({ trace, mean_bps: (ms.length * 1504 * 8 * 1000) / ms[ms.length - 1], errors: [] });
    },
    debug_trap: () => {
      throw trapError();
    },
  };
}
