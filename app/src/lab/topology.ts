// Topologies of the scenario builder and the edits that move a scenario
// between them. The scenario document stays the single source of truth: the
// topology is inferred from its shape (see inferTopology) unless the student
// picked "custom" explicitly.

import type { Flow, Host, Scenario } from '../engine/types';

export type Topology = 'back_to_back' | 'two_to_one' | 'parallel' | 'custom';

export const TOPOLOGIES: { id: Topology; name: string; description: string }[] = [
  { id: 'back_to_back', name: 'Back-to-back', description: 'One sender host, one flow, straight into the receiver.' },
  { id: 'two_to_one', name: 'Two-to-one', description: 'Two sender hosts, one flow each, sharing one bottleneck.' },
  { id: 'parallel', name: 'Parallel streams', description: 'N streams from one host sharing its NIC and interface queue.' },
  { id: 'custom', name: 'Custom dumbbell', description: 'Any number of hosts, any number of flows on each.' },
];

export const MAX_PARALLEL_STREAMS = 16;
export const MAX_HOSTS = 16;
export const MAX_FLOWS_PER_HOST = 16;

export function flowCount(s: Scenario): number {
  return s.hosts.reduce((n, h) => n + h.flows.length, 0);
}

/** The flows in engine order (host by host) with their host and index on it. */
export function flatFlows(s: Scenario): { flow: Flow; host: number; index: number; global: number }[] {
  const out: { flow: Flow; host: number; index: number; global: number }[] = [];
  s.hosts.forEach((h, hi) => h.flows.forEach((f, fi) => out.push({ flow: f, host: hi, index: fi, global: out.length })));
  return out;
}

export function inferTopology(s: Scenario): Topology {
  const n = flowCount(s);
  if (s.hosts.length === 1 && n === 1) return 'back_to_back';
  if (s.hosts.length === 2 && s.hosts.every((h) => h.flows.length === 1)) return 'two_to_one';
  if (s.hosts.length === 1 && n > 1 && n <= MAX_PARALLEL_STREAMS) return 'parallel';
  return 'custom';
}

const cloneFlow = (f: Flow): Flow => ({ ...f, params: { ...f.params } });
const cloneHost = (h: Host, flows: Flow[]): Host => ({ ...h, flows });

/** Reshape a scenario for a topology, keeping its flows and host settings where they fit. */
export function applyTopology(s: Scenario, topology: Topology, streams?: number): Scenario {
  const flows = flatFlows(s).map((f) => f.flow);
  const first = flows[0];
  const host0 = s.hosts[0];
  switch (topology) {
    case 'back_to_back':
      return { ...s, hosts: [cloneHost(host0, [cloneFlow(first)])] };
    case 'two_to_one': {
      const second = flows[1] ?? first;
      const host1 = s.hosts[1] ?? host0;
      return { ...s, hosts: [cloneHost(host0, [cloneFlow(first)]), cloneHost(host1, [cloneFlow(second)])] };
    }
    case 'parallel': {
      const n = Math.max(1, Math.min(MAX_PARALLEL_STREAMS, streams ?? Math.max(2, Math.min(flows.length, MAX_PARALLEL_STREAMS))));
      return { ...s, hosts: [cloneHost(host0, Array.from({ length: n }, (_, i) => cloneFlow(flows[i] ?? first)))] };
    }
    case 'custom':
      return s;
  }
}

/** Set the number of parallel streams on host 0 (new streams copy the last one). */
export function setStreamCount(s: Scenario, n: number): Scenario {
  const count = Math.max(1, Math.min(MAX_PARALLEL_STREAMS, Math.round(n)));
  const h = s.hosts[0];
  const flows = Array.from({ length: count }, (_, i) => cloneFlow(h.flows[i] ?? h.flows[h.flows.length - 1]));
  return { ...s, hosts: [cloneHost(h, flows), ...s.hosts.slice(1)] };
}

export function addHost(s: Scenario): Scenario {
  if (s.hosts.length >= MAX_HOSTS) return s;
  const last = s.hosts[s.hosts.length - 1];
  return { ...s, hosts: [...s.hosts, cloneHost(last, [cloneFlow(last.flows[0])])] };
}

export function removeHost(s: Scenario, h: number): Scenario {
  if (s.hosts.length <= 1) return s;
  return { ...s, hosts: s.hosts.filter((_, i) => i !== h) };
}

export function addFlow(s: Scenario, h: number): Scenario {
  const host = s.hosts[h];
  if (!host || host.flows.length >= MAX_FLOWS_PER_HOST) return s;
  return updateHost(s, h, (x) => ({ ...x, flows: [...x.flows, cloneFlow(x.flows[x.flows.length - 1])] }));
}

export function removeFlow(s: Scenario, h: number, i: number): Scenario {
  const host = s.hosts[h];
  if (!host) return s;
  if (host.flows.length <= 1) return removeHost(s, h);
  return updateHost(s, h, (x) => ({ ...x, flows: x.flows.filter((_, j) => j !== i) }));
}

export function updateHost(s: Scenario, h: number, f: (host: Host) => Host): Scenario {
  return { ...s, hosts: s.hosts.map((x, i) => (i === h ? f(x) : x)) };
}

/** Update flow `global` (engine order). */
export function updateFlow(s: Scenario, global: number, f: (flow: Flow) => Flow): Scenario {
  let k = 0;
  return {
    ...s,
    hosts: s.hosts.map((h) => ({
      ...h,
      flows: h.flows.map((x) => (k++ === global ? f(x) : x)),
    })),
  };
}

export function updateAllFlows(s: Scenario, f: (flow: Flow) => Flow): Scenario {
  return { ...s, hosts: s.hosts.map((h) => ({ ...h, flows: h.flows.map(f) })) };
}

export function updateAllHosts(s: Scenario, f: (host: Host) => Host): Scenario {
  return { ...s, hosts: s.hosts.map(f) };
}

/** The value every item shares, or null when they differ. */
export function common<T>(values: T[]): T | null {
  return values.length > 0 && values.every((v) => v === values[0]) ? values[0] : null;
}

/** The engine field path of flow `global` ("hosts[1].flows[0]"). */
export function flowPath(s: Scenario, global: number): string {
  const f = flatFlows(s)[global];
  return f ? `hosts[${f.host}].flows[${f.index}]` : `flows[${global}]`;
}
