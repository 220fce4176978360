// In-process stand-ins for guided-lab workers: the real handler
// (workerCore.ts) against a fake engine, answers delivered after a chosen
// delay (use with vi.useFakeTimers), structured-cloned like real messages.

import type { PointResult, SeedAggregate, SweepAggregates } from '../../engine/generated/labs';
import type { LabEngine } from '../engineApi';
import type { BatchItem, FromLabWorker, LabCall, ToLabWorker } from '../protocol';
import { handleCall, outcomeMessage } from '../workerCore';
import type { LabWorkerLike } from '../workerClient';

export interface FakeLabWorker extends LabWorkerLike {
  terminated: boolean;
  received: LabCall[];
}

export interface FakeOptions {
  /** Delay (ms) of the answer to a call; default 10 (10 per point for a batch). */
  delay?: (call: LabCall) => number;
  /** Delay before 'ready'; default 0. */
  loadMs?: number;
  /** The engine fails to load. */
  loadError?: string;
  /** Clock for wallMs (defaults to Date.now, which fake timers move). */
  now?: () => number;
  /** Points whose run never answers: the worker exits without an error event. */
  silentAt?: number[];
}

export function fakeResult(lab: string, index: number): PointResult {
  return {
    lab,
    series: `s${index % 2}`,
    x: index,
    seed: 1,
    total_throughput_mbps: 100 + index,
    group_labels: ['g0'],
    group_throughput_mbps: [100 + index],
    flow_throughput_mbps: [100 + index],
    standard_throughput_mbps: null,
    standard_share: null,
    jain_index: 1,
    utilisation: (100 + index) / 1000,
    time_to_max_rate_s: null,
    flow_time_to_max_rate_s: [null],
    drops: 0,
    local_congestion_events: index,
    ecn_marks: 0,
    timeouts: 0,
    congestion_event_rate: 0,
    group_congestion_event_rate: [0],
    mean_outstanding_kbytes: 1,
    duration_s: 1,
  };
}

const FAKE_SCENARIO = { hosts: [{ nic_bps: 1e9, flows: [] }], bottleneck: { rate_bps: 1e9 }, mtu_bytes: 9000, duration_ms: 1000 };

/**
 * A fake engine whose point `index` measures 100 + index Mb/s (+100 per
 * ablation variant index); `trapAt` points trap; `unknown` adds a stated
 * unknown's two range ends as variants 2 and 3.
 */
export function fakeLabEngine(o: { points?: number; trapAt?: number[]; unknown?: boolean } = {}): LabEngine {
  const n = o.points ?? 10;
  return {
    labs_json: () => JSON.stringify({ version: 1, labs: [] }),
    paper_json: () => JSON.stringify({ version: 1, values: [], parameters: [], findings: [] }),
    lab_points_json: (lab) => JSON.stringify(Array.from({ length: n }, (_, i) => ({ lab, series: `s${i % 2}`, x: i, seed: 1, groups: [0], scenario: FAKE_SCENARIO }))),
    run_lab_point_json: (lab, _quick, index) => {
      if (index >= n) throw new Error(`lab ${lab} has ${n} points, not ${index + 1}`);
      if (o.trapAt?.includes(index)) throw new WebAssembly.RuntimeError('unreachable');
      return JSON.stringify(fakeResult(lab, index));
    },
    compare_lab_json: (_lab, results) => JSON.stringify([{ key: 'k', simulated_points: (JSON.parse(results) as unknown[]).length }]),
    rank_lab_json: () => 'null',
    // Each result alone at its x, and a count of them per series.
    lab_aggregates_json: (_lab, _quick, metrics, results) => {
      const rs = JSON.parse(results) as PointResult[];
      const out: SweepAggregates = { at_x: [], series: [] };
      for (const metric of JSON.parse(metrics) as SeedAggregate['metric'][]) {
        for (const r of rs) {
          const v = r.total_throughput_mbps;
          out.at_x.push({ metric, series: r.series, group: null, x: r.x, mean: v, min: v, max: v, values: [v], runs: [Number(r.x)], seeds: [r.seed] });
        }
        for (const series of new Set(rs.map((r) => r.series))) out.series.push({ metric, series, mean: rs.filter((r) => r.series === series).length });
      }
      return JSON.stringify(out);
    },
    // One sentence, true once any result is in.
    lab_claims_json: (_lab, _quick, results) => {
      const n = (JSON.parse(results) as unknown[]).length;
      return JSON.stringify([{ id: 'c', text: `${n} runs`, parts: [{ text: `${n} runs`, reference: null, value: null }], holds: n > 0 ? true : null, detail: '' }]);
    },
    // One finding, held once any result is in.
    lab_findings_json: (_lab, _quick, results) => {
      const n = (JSON.parse(results) as unknown[]).length;
      return JSON.stringify([{ id: 'f', text: 'a finding', status: n > 0 ? 'held' : 'pending', detail: '', note: null, source: { seed: '000', file: '', at: '' } }]);
    },
    ablation_variants_json: () =>
      JSON.stringify([
        { index: 0, switch: null, label: 'fake as a whole', profile_value: '', turned_back_to: '', overrides: {} },
        { index: 1, switch: 'nic_ring', label: 'NIC transmit ring', profile_value: '128 packets', turned_back_to: 'none', overrides: { nic_ring_pkts: 0 } },
        ...(o.unknown
          ? [295, 417].map((value, k) => ({
              index: 2 + k,
              switch: null,
              label: `the switch's egress buffer at the ${k ? 'high' : 'low'} end of its plausible range`,
              profile_value: '116 packets (assumed)',
              turned_back_to: `${value} packets`,
              overrides: {},
              unknown: { id: 'switch-buffer', value },
            }))
          : []),
      ]),
    run_ablation_point_json: (lab, _quick, variant, index) => {
      if (index >= n) throw new Error(`lab ${lab} has ${n} points, not ${index + 1}`);
      const r = fakeResult(lab, index);
      r.total_throughput_mbps += 100 * variant;
      return JSON.stringify(r);
    },
    ablation_row_json: (_lab, _quick, variant, results) => {
      const rs = JSON.parse(results) as PointResult[];
      const mean = rs.reduce((a, r) => a + r.total_throughput_mbps, 0) / Math.max(1, rs.length);
      return JSON.stringify({
        variant: { index: variant, switch: variant ? 'nic_ring' : null, label: variant ? 'NIC transmit ring' : 'fake as a whole', profile_value: '', turned_back_to: '', overrides: {} },
        headline: [{ label: 'total', unit: 'Mb/s', paper: 150, simulated: mean }],
        values_compared: 1,
        values_within_tolerance: Math.abs(mean - 150) <= 15 ? 1 : 0,
        orderings_total: 0,
        orderings_held: 0,
        spearman: null,
        findings_decided: 0,
        findings_held: 0,
      });
    },
    // A "sweep file" here is JSON { lab, quick, indices }: opened when it names this lab and scale, else refused on line 1.
    open_sweep_file_json: (text, lab, quick) => {
      let f: { lab: string; quick: boolean; indices: number[] };
      try {
        f = JSON.parse(text) as typeof f;
      } catch {
        return JSON.stringify({ status: 'refused', line: 1, message: 'this is not a sweep file' });
      }
      if (f.lab !== lab || f.quick !== quick) return JSON.stringify({ status: 'refused', line: 1, message: `this file holds lab ${f.lab}` });
      return JSON.stringify({ status: 'opened', lab, quick, series: [], engine: 'fake', results_stamp: 'stamp', indices: f.indices, results: f.indices.map((i) => fakeResult(lab, i)) });
    },
    engine_id: () => 'fake',
    debug_trap: () => {
      throw new WebAssembly.RuntimeError('unreachable');
    },
  };
}

export function createFakeLabWorker(engine: LabEngine, o: FakeOptions = {}): FakeLabWorker {
  const now = o.now ?? (() => Date.now());
  let loaded = false;
  const queue: ToLabWorker[] = [];
  const w: FakeLabWorker = {
    terminated: false,
    received: [],
    onmessage: null,
    onerror: null,
    postMessage(msg: ToLabWorker) {
      if (w.terminated) return;
      const copy = structuredClone(msg);
      if (loaded) handle(copy);
      else queue.push(copy);
    },
    terminate() {
      w.terminated = true;
    },
  };
  const post = (msg: FromLabWorker, delay = 0) =>
    setTimeout(() => {
      if (!w.terminated) w.onmessage?.({ data: structuredClone(msg) } as MessageEvent<FromLabWorker>);
    }, delay);
  // One call at a time, as a real worker: a call waits for the ones before it.
  let busyUntil = 0;
  const handle = (msg: ToLabWorker) => {
    w.received.push(msg.call);
    const call = msg.call;
    if (busyUntil === Infinity) return; // stuck in a silent call
    const work = o.delay?.(call) ?? (call.fn === 'runBatch' ? 10 * call.indices.length : 10);
    const startAt = Math.max(Date.now(), busyUntil);
    busyUntil = startAt + work;
    const delay = busyUntil - Date.now();
    if ((call.fn === 'run' && o.silentAt?.includes(call.index)) || (call.fn === 'runBatch' && call.indices.some((i) => o.silentAt?.includes(i)))) {
      busyUntil = Infinity; // never answers, and neither does anything after it
      return;
    }
    if (msg.call.fn === 'run' && msg.call.debug === 'crash') {
      setTimeout(() => {
        if (!w.terminated) w.onerror?.({ message: 'deliberate worker crash', preventDefault() {} } as ErrorEvent);
      }, delay);
      return;
    }
    const t0 = now() + (startAt - Date.now());
    const out = handleCall(engine, msg.call, () => t0);
    // The fake clock stands still inside a call: a batch's time is shared evenly among its points.
    if (out.ok && call.fn === 'runBatch') for (const item of out.value as BatchItem[]) if (item.ok) item.wallMs = work / call.indices.length;
    setTimeout(() => {
      if (w.terminated) return;
      const answer = out.ok ? { ...out, wallMs: now() - t0 } : out;
      w.onmessage?.({ data: structuredClone(outcomeMessage(msg.id, answer)) } as MessageEvent<FromLabWorker>);
    }, delay);
  };
  setTimeout(() => {
    if (w.terminated) return;
    if (o.loadError) {
      post({ type: 'load-error', error: { kind: 'load', message: o.loadError } });
      return;
    }
    loaded = true;
    post({ type: 'ready', info: null });
    for (const m of queue.splice(0)) handle(m);
  }, o.loadMs ?? 0);
  return w;
}
