import { describe, expect, it } from 'vitest';
import { defaultMockScenario } from '../engine/testing/mockEngine';
import { LabStore } from './labStore';

describe('LabStore', () => {
  it('holds one serialisable scenario and notifies on edits', () => {
    const d = defaultMockScenario();
    const store = new LabStore(d, d);
    let calls = 0;
    store.subscribe(() => calls++);
    store.update((s) => ({ ...s, rtt_ms: 80 }));
    expect(store.getSnapshot().scenario.rtt_ms).toBe(80);
    expect(calls).toBe(1);
    store.update((s) => s);
    expect(calls).toBe(1);
    expect(JSON.parse(JSON.stringify(store.getSnapshot()))).toEqual(store.getSnapshot());
  });

  it('keeps a buffer set as a fraction of the BDP when the path changes', () => {
    const d = defaultMockScenario();
    const store = new LabStore(d, d);
    store.setView({ bufferBdpFraction: 1 });
    expect(store.getSnapshot().scenario.bottleneck.buffer_pkts).toBe(415);
    store.update((s) => ({ ...s, rtt_ms: 60 }));
    expect(store.getSnapshot().scenario.bottleneck.buffer_pkts).toBe(830);
    store.setView({ bufferBdpFraction: null });
    store.update((s) => ({ ...s, rtt_ms: 30 }));
    expect(store.getSnapshot().scenario.bottleneck.buffer_pkts).toBe(830);
  });

  it('switches topology, infers it on load and resets to the defaults', () => {
    const d = defaultMockScenario();
    const store = new LabStore(d, d);
    store.setTopology('parallel', 4);
    expect(store.getSnapshot().scenario.hosts[0].flows).toHaveLength(4);
    store.setView({ selectedFlow: 3 });
    store.setTopology('back_to_back');
    expect(store.getSnapshot().view.selectedFlow).toBe(0);
    store.load({ ...d, hosts: [d.hosts[0], d.hosts[0]] });
    expect(store.getSnapshot().view.topology).toBe('two_to_one');
    store.reset();
    expect(store.getSnapshot().scenario).toEqual(d);
    expect(store.getSnapshot().scenario).not.toBe(d);
  });
});
