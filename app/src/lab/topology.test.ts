import { describe, expect, it } from 'vitest';
import { defaultMockScenario } from '../engine/testing/mockEngine';
import { addFlow, addHost, applyTopology, flatFlows, flowPath, inferTopology, removeFlow, setStreamCount, updateFlow } from './topology';

describe('topologies', () => {
  const base = defaultMockScenario();
  it('infers the topology from the scenario shape', () => {
    expect(inferTopology(base)).toBe('back_to_back');
    expect(inferTopology(applyTopology(base, 'two_to_one'))).toBe('two_to_one');
    expect(inferTopology(applyTopology(base, 'parallel', 4))).toBe('parallel');
    expect(inferTopology(addFlow(applyTopology(base, 'two_to_one'), 0))).toBe('custom');
  });
  it('moves between topologies keeping flows and host settings', () => {
    const two = applyTopology({ ...base, hosts: [{ ...base.hosts[0], txqueuelen_pkts: 250 }] }, 'two_to_one');
    expect(two.hosts).toHaveLength(2);
    expect(two.hosts[1].txqueuelen_pkts).toBe(250);
    const mixed = updateFlow(two, 1, (f) => ({ ...f, algorithm: 'scalable' }));
    expect(flatFlows(mixed).map((f) => f.flow.algorithm)).toEqual(['reno', 'scalable']);
    const par = applyTopology(mixed, 'parallel', 3);
    expect(par.hosts).toHaveLength(1);
    expect(par.hosts[0].flows.map((f) => f.algorithm)).toEqual(['reno', 'scalable', 'reno']);
    const back = applyTopology(par, 'back_to_back');
    expect(flatFlows(back)).toHaveLength(1);
    expect(mixed.hosts[0].flows[0]).not.toBe(two.hosts[1].flows[0]);
  });
  it('sets stream counts within 1..16 and edits custom dumbbells', () => {
    expect(setStreamCount(base, 40).hosts[0].flows).toHaveLength(16);
    expect(setStreamCount(base, 0).hosts[0].flows).toHaveLength(1);
    let s = addHost(base);
    s = addFlow(s, 1);
    expect(s.hosts.map((h) => h.flows.length)).toEqual([1, 2]);
    expect(flowPath(s, 2)).toBe('hosts[1].flows[1]');
    s = removeFlow(s, 1, 0);
    expect(s.hosts.map((h) => h.flows.length)).toEqual([1, 1]);
    s = removeFlow(s, 1, 0);
    expect(s.hosts).toHaveLength(1);
  });
});
