import { describe, expect, it } from 'vitest';
import { EngineClient } from '../engine/client';
import { createFakeWorker } from '../engine/testing/fakeWorker';
import { createMockEngine, defaultMockScenario } from '../engine/testing/mockEngine';
import { RunStore } from '../lab/runStore';
import { csvField, eventsCsv, parseCsv, seriesColumns, seriesCsv, summaryCsv } from './csv';
import { fileStem } from './download';
import { EmbedChannel, type EmbedMessage } from './embedMessages';
import { parseScenarioText, scenarioJson } from './scenarioFile';

async function mockRun() {
  const client = new EngineClient(() => createFakeWorker(createMockEngine()));
  const store = new RunStore(client);
  store.start(defaultMockScenario());
  const snap = await store.whenDone();
  client.dispose();
  return snap;
}

describe('CSV exports', () => {
  it('series: one column per engine column, every row, exact numbers', async () => {
    const snap = await mockRun();
    const text = seriesCsv(snap.series!);
    const rows = parseCsv(text);
    const cols = seriesColumns(snap.series!);
    expect(rows[0]).toEqual(cols.map((c) => c.name));
    expect(rows[0][0]).toBe('t_s');
    expect(rows[0]).toContain('f0.cwnd_pkts');
    expect(rows).toHaveLength(snap.series!.length + 1);
    const ci = rows[0].indexOf('f0.cwnd_pkts');
    for (let r = 0; r < snap.series!.length; r++) {
      expect(Number(rows[r + 1][0])).toBe(snap.series!.t[r]);
      expect(Number(rows[r + 1][ci])).toBe(snap.series!.flows[0].cwnd_pkts[r]);
    }
    expect(text.endsWith('\r\n')).toBe(true);
  });

  it('events and summary', async () => {
    const snap = await mockRun();
    const ev = parseCsv(eventsCsv(snap.events));
    expect(ev[0]).toEqual(['t_s', 'flow', 'kind']);
    expect(ev).toHaveLength(snap.events.length + 1);
    expect(ev[1]).toEqual([String(snap.events[0].t_s), String(snap.events[0].flow), snap.events[0].kind]);
    const sum = parseCsv(summaryCsv(snap.summary!));
    expect(sum[0]).toEqual(['scope', 'index', 'metric', 'value']);
    expect(sum).toContainEqual(['run', '', 'total_throughput_bps', String(snap.summary!.total_throughput_bps)]);
    expect(sum.some((r) => r[0] === 'flow' && r[1] === '0' && r[2] === 'algorithm')).toBe(true);
  });

  it('quotes and defuses text', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvField(NaN)).toBe('');
    expect(csvField(-1.5)).toBe('-1.5');
    expect(parseCsv('a,"b,c"\r\n"x""y",\r\n')).toEqual([['a', 'b,c'], ['x"y', '']]);
  });
});

describe('scenario files', () => {
  it('download text parses back', () => {
    const s = defaultMockScenario();
    expect(parseScenarioText(scenarioJson(s))).toEqual({ ok: true, scenario: s });
  });
  it('rejects non-JSON, non-objects and huge files with a message', () => {
    for (const t of ['nope', '[1,2]', '42', 'x'.repeat(1_000_001)]) {
      const r = parseScenarioText(t, 'up.json');
      expect(r.ok).toBe(false);
      expect(!r.ok && r.message).toMatch(/up\.json .*nothing was loaded/);
    }
  });
  it('file names are safe', () => {
    expect(fileStem({ algorithms: ['reno', 'scalable', 'reno'], rttMs: 30, seed: 7 })).toBe('sawtooth-reno+scalable-rtt30-seed7');
    expect(fileStem({ algorithms: ['../<x>'], rttMs: 1, seed: 1 })).toBe('sawtooth-..__x_-rtt1-seed1');
  });
});

describe('embed messages', () => {
  it('posts ready once and one summary per run, to the target origin', async () => {
    const snap = await mockRun();
    const sent: [EmbedMessage, string][] = [];
    const ch = new EmbedChannel({ postMessage: (m, o) => sent.push([m as EmbedMessage, o]) }, 'https://slides.example');
    ch.ready();
    ch.ready();
    ch.summary(1, snap.summary!, snap.scenario);
    ch.summary(1, snap.summary!, snap.scenario);
    ch.summary(2, snap.summary!, snap.scenario);
    expect(sent.map(([m, o]) => [m.type, o])).toEqual([
      ['sawtooth:ready', 'https://slides.example'],
      ['sawtooth:summary', 'https://slides.example'],
      ['sawtooth:summary', 'https://slides.example'],
    ]);
    expect(sent[1][0]).toMatchObject({ version: 1, summary: { total_throughput_bps: snap.summary!.total_throughput_bps } });
    // Not framed: nothing to post to, nothing thrown.
    new EmbedChannel(null, '*').ready();
  });
  it('posts nothing when ?origin= was rejected (no target origin)', async () => {
    const snap = await mockRun();
    const sent: unknown[] = [];
    const ch = new EmbedChannel({ postMessage: (m) => sent.push(m) }, null);
    ch.ready();
    ch.summary(1, snap.summary!, snap.scenario);
    ch.error(2, { kind: 'internal', message: 'x' });
    expect(sent).toEqual([]);
  });
});
