import { describe, expect, it } from 'vitest';
import type { Scenario, ValidationError } from '../engine/types';
import { chartSummaryText, tableRows } from './ChartTable';
import { chartShown, controlShown, loadFromUrl, resolveView } from './loadFromUrl';
import { engineDefaults } from './testing/defaults';
import { DEFAULT_VIEW } from './view';

const validate = async (s: Scenario): Promise<ValidationError[]> =>
  s.rtt_ms > 1000 ? [{ field: 'rtt_ms', value: String(s.rtt_ms), message: 'must be between 0 and 1000 ms' }] : [];

describe('loadFromUrl', () => {
  const d = engineDefaults();
  it('decodes, lets the engine check, and collects every notice', async () => {
    const r = await loadFromUrl('?v=2&rtt=5000&seed=7&win=<b>&embed=1&charts=cwnd&profile=neon', d, validate);
    expect(r.scenario).toEqual({ ...d, seed: 7 });
    expect(r.view.embed).toBe(true);
    expect(r.notices).toHaveLength(3);
    expect(r.notices[0]).toMatch(/win="<b>"/);
    expect(r.notices[1]).toMatch(/profile=/);
    expect(r.notices[2]).toBe('Ignored rtt_ms = 5000: must be between 0 and 1000 ms in the link; using 30.');
  });
  it('no parameters: defaults, no notices, the engine is not asked', async () => {
    const r = await loadFromUrl('', d, () => Promise.reject(new Error('not called')));
    expect(r).toMatchObject({ scenario: d, notices: [], fromUrl: false });
  });
  it('views: charts and controls by name', () => {
    const { view, notices } = resolveView({ ...DEFAULT_VIEW, embed: true, charts: ['cwnd', 'nope'], controls: ['rtt'], profile: 'projector', theme: 'projector' }, ['cwnd', 'throughput'], ['rtt', 'window']);
    expect(notices).toHaveLength(1);
    expect(chartShown(view, 'cwnd')).toBe(true);
    expect(chartShown(view, 'throughput')).toBe(false);
    expect(controlShown(view, 'rtt')).toBe(true);
    expect(controlShown(view, 'window')).toBe(false);
    expect(controlShown({ ...view, controls: null }, 'window')).toBe(false);
    expect(controlShown({ ...view, embed: false, controls: null }, 'window')).toBe(true);
  });
});

describe('chart text alternatives', () => {
  it('table rows are evenly spaced and end with the last sample', () => {
    expect(tableRows(5, 10)).toEqual([0, 1, 2, 3, 4]);
    const r = tableRows(2001, 200);
    expect(r).toHaveLength(200);
    expect(r[0]).toBe(0);
    expect(r.at(-1)).toBe(2000);
    expect(tableRows(0, 10)).toEqual([]);
  });
  it('the summary names each series with its range and mean', () => {
    const t = chartSummaryText('Congestion window', 'time (s)', [0, 1, 2], [{ label: 'flow 0', values: [2, 4, NaN] }]);
    expect(t).toBe('Congestion window, 3 samples over time (s) 0 to 2: flow 0 between 2 and 4 (mean 3).');
    expect(chartSummaryText('X', 't', [], [])).toBe('X: no data yet.');
  });
});
