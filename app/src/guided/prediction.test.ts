import { describe, expect, it } from 'vitest';
import type { Lab } from '../engine/generated/labs';
import type { Scenario } from '../engine/types';
import { encodePrediction, parsePrediction } from '../share/prediction';
import {
  initialSketch,
  labQuestion,
  lineName,
  moveSketchPoint,
  predictionForScaleLink,
  predictionFromLink,
  predictionLink,
  scoreChoice,
  scoreSketch,
  sketchAxisTop,
  sketchStep,
  trendOf,
  type Prediction,
} from './prediction';
import { lab, onePerPoint, point, seedAggregate, series } from './testing/fixtures';

// Lab 1's shape: three algorithms over the window, a quick scale with fewer windows.
const MB = 1024 * 1024;
const b2b = lab({
  id: 'back-to-back',
  series: [series('reno', [{ algorithm: 'reno' }], {}, 'Standard TCP'), series('highspeed', [{ algorithm: 'highspeed' }], {}, 'HighSpeed TCP'), series('scalable', [{ algorithm: 'scalable' }], {}, 'Scalable TCP')],
  sweep: { axis: 'window_bytes', label: 'Window', unit: 'bytes', values: [MB, 4 * MB, 8 * MB, 16 * MB], log_scale: true },
  quick: { set: { duration_ms: 5000 }, values: [MB, 16 * MB], seeds: null, series: null, measure: null, note: 'quick' },
  base: { bottleneck: { rate_bps: 1e9, buffer_pkts: 100, aqm: { kind: 'droptail' } }, rtt_ms: 30, duration_ms: 10000, hosts: [{ nic_bps: 1e9, txqueuelen_pkts: 100, flows: [{ window_bytes: 16 * MB }] }] } as unknown as Scenario,
});
// Many series: the question asks for the Standard TCP line's trend.
const many = lab({
  series: [
    series('sc-a', [{ algorithm: 'scalable' }], {}, 'Scalable a'),
    series('std', [{ algorithm: 'reno' }], {}, 'Standard TCP'),
    ...Array.from({ length: 6 }, (_, i) => series(`s${i}`, [{ algorithm: 'highspeed' }], {}, `HighSpeed ${i}`)),
  ],
});

/** Every series at every swept value, series by series. */
const quickPoints = (l: Lab, xs: number[]) => l.series.flatMap((s) => xs.map((x) => point(s.id, x)));
/** The same, swept value by swept value. */
const byX = (l: Lab, xs: number[]) => xs.flatMap((x) => l.series.map((s) => point(s.id, x)));

describe('the question, from the lab’s own definition', () => {
  it('asks which line is highest at the last swept value of the scale, the lines being the choices', () => {
    const q = labQuestion(b2b, true);
    expect(q.kind).toBe('highest');
    expect(q.chartId).toBe('total_throughput_mbps');
    expect(q.text).toBe('At 16 MB, which will have the highest total throughput?');
    expect(q.choices).toEqual([
      { id: 'reno', label: 'Standard TCP' },
      { id: 'highspeed', label: 'HighSpeed TCP' },
      { id: 'scalable', label: 'Scalable TCP' },
    ]);
    expect(q.xs).toEqual([MB, 16 * MB]);
    // The faithful scale sweeps more values, so the sketch has more points.
    expect(labQuestion(b2b, false).xs).toHaveLength(4);
  });

  it('asks at the lab’s predict_at where the scale runs it (where the paper’s lines part), else at the last value', () => {
    const at4 = lab({ ...b2b, guide: { ...b2b.guide, predict_at: 4 * MB } });
    expect(labQuestion(at4, false).at).toBe(4 * MB);
    expect(labQuestion(at4, false).text).toBe('At 4 MB, which will have the highest total throughput?');
    // The quick scale does not run 4 MB: its last value.
    expect(labQuestion(at4, true).at).toBe(16 * MB);
  });

  it('quotes a line label made of parts inside the trend question', () => {
    expect(lineName('Standard vs Standard: client 1: Standard TCP')).toBe('“Standard vs Standard: client 1: Standard TCP”');
    expect(lineName('Standard TCP')).toBe('Standard TCP');
  });

  it('with more than six lines, asks whether the Standard TCP line rises, falls or stays flat', () => {
    const q = labQuestion(many, true);
    expect(q.kind).toBe('trend');
    expect(q.line!.id).toBe('std');
    expect(q.choices.map((c) => c.id)).toEqual(['rise', 'fall', 'flat']);
    expect(q.text).toBe('From 50 packets to 200 packets, will the total throughput of Standard TCP rise, fall or stay about flat (within ±10 %)?');
  });

  it('only the series of the scale are choices; per-group lines with the same name are told apart', () => {
    const quickSeries = lab({ ...b2b, quick: { ...b2b.quick, series: ['reno', 'scalable'] } });
    expect(labQuestion(quickSeries, true).choices.map((c) => c.id)).toEqual(['reno', 'scalable']);
    expect(labQuestion(quickSeries, false).choices.map((c) => c.id)).toEqual(['reno', 'highspeed', 'scalable']);
    const pairs = lab({
      metrics: ['group_share'],
      series: [series('cubic-cubic', [{ algorithm: 'cubic', label: 'CUBIC' }, { algorithm: 'cubic', label: 'CUBIC' }], {}, 'CUBIC vs CUBIC')],
    });
    expect(labQuestion(pairs, true).choices).toEqual([
      { id: 'cubic-cubic#0', label: 'CUBIC vs CUBIC: CUBIC (flow 1)' },
      { id: 'cubic-cubic#1', label: 'CUBIC vs CUBIC: CUBIC (flow 2)' },
    ]);
  });
});

describe('the verdict on a choice, from the aggregates the chart draws', () => {
  const q = labQuestion(b2b, true);
  const points = byX(b2b, [MB, 16 * MB]);
  // reno, highspeed, scalable at 1 MB, then at 16 MB.
  const agg = onePerPoint('total_throughput_mbps', points, [300, 310, 320, 700, 939, 923]);

  it('wrong, with the sentence naming both lines and both values', () => {
    const v = scoreChoice(q, 'scalable', agg, points, true);
    expect(v.status).toBe('wrong');
    expect(v.answers).toEqual(['highspeed']);
    expect(v.sentence).toBe('You expected Scalable TCP highest; the simulation has HighSpeed TCP highest at 16 MB (923 vs 939 Mb/s).');
  });

  it('right, naming the next line', () => {
    expect(scoreChoice(q, 'highspeed', agg, points, true)).toEqual({
      status: 'right',
      answers: ['highspeed'],
      sentence: 'Right: HighSpeed TCP has the highest total throughput at 16 MB (939 Mb/s; next, Scalable TCP at 923 Mb/s).',
    });
  });

  it('lines within 1 % of the highest are level with it: either is right', () => {
    const close = onePerPoint('total_throughput_mbps', points, [300, 310, 320, 700, 939, 930]);
    const v = scoreChoice(q, 'scalable', close, points, true);
    expect(v.status).toBe('right');
    expect(v.answers).toEqual(['highspeed', 'scalable']);
    expect(v.sentence).toBe('Right: at 16 MB, Scalable TCP (930 Mb/s) is level within 1 % with the highest, HighSpeed TCP (939 Mb/s).');
    expect(scoreChoice(q, 'highspeed', close, points, true).sentence).toBe(
      'Right: HighSpeed TCP has the highest total throughput at 16 MB (939 Mb/s), level within 1 % with Scalable TCP (930 Mb/s).',
    );
    expect(scoreChoice(q, 'reno', close, points, true).status).toBe('wrong');
  });

  it('pending until every run at that value is in (not on other values)', () => {
    const partial = { at_x: agg.at_x.filter((a) => !(a.series === 'scalable' && a.x === 16 * MB)), series: [] };
    expect(scoreChoice(q, 'highspeed', partial, points, false)).toEqual({ status: 'pending', answers: [], sentence: 'Waiting for the runs at 16 MB.' });
    // Two seeds, one finished: still pending.
    const twoSeeds = [...points, point('reno', 16 * MB, 2)];
    expect(scoreChoice(q, 'highspeed', agg, twoSeeds, false).status).toBe('pending');
    // The sweep is over (a run failed): judged on what there is.
    expect(scoreChoice(q, 'highspeed', agg, twoSeeds, true).status).toBe('right');
    expect(scoreChoice(q, 'highspeed', null, points, false).status).toBe('pending');
  });

  it('a value never reached counts as the longest time', () => {
    const ttm = lab({ ...b2b, metrics: ['time_to_max_rate_s'] });
    const tq = labQuestion(ttm, true);
    const a = onePerPoint('time_to_max_rate_s', points, [1, 2, 3, 4, null, 6]);
    const v = scoreChoice(tq, 'highspeed', a, points, true);
    expect(v.status).toBe('right');
    expect(v.sentence).toContain('(never; next, Scalable TCP at 6 s)');
    const none = { at_x: a.at_x.map((x) => ({ ...x, mean: null, runs: [] })), series: [] };
    expect(scoreChoice(tq, 'reno', none, points, true).status).toBe('unavailable');
  });

  it('a trend: rise, fall or about flat from the first swept value to the last', () => {
    const tq = labQuestion(many, true);
    const pts = many.series.flatMap((s) => [50, 200].map((x) => point(s.id, x)));
    const values = (from: number, to: number) => ({ at_x: [seedAggregate('total_throughput_mbps', 'std', 50, [[0, 1, from]]), seedAggregate('total_throughput_mbps', 'std', 200, [[1, 1, to]])], series: [] });
    expect(scoreChoice(tq, 'rise', values(480, 940), pts, true)).toEqual({
      status: 'right',
      answers: ['rise'],
      sentence: 'Right: the total throughput of Standard TCP rises: 480 Mb/s at 50 packets, 940 Mb/s at 200 packets (+96 %).',
    });
    expect(scoreChoice(tq, 'flat', values(480, 940), pts, true).sentence).toBe(
      'You expected the total throughput of Standard TCP to stay about flat; it rises: 480 Mb/s at 50 packets, 940 Mb/s at 200 packets (+96 %).',
    );
    expect(scoreChoice(tq, 'flat', values(940, 900), pts, true).status).toBe('right');
    expect(scoreChoice(tq, 'fall', values(940, 800), pts, true).sentence).toContain('falls: 940 Mb/s at 50 packets, 800 Mb/s at 200 packets (−15 %)');
    expect(scoreChoice(tq, 'rise', values(480, 940), pts, false).status).toBe('right');
    expect(scoreChoice(tq, 'rise', { at_x: [], series: [] }, pts, false).status).toBe('pending');
  });

  it('trendOf, at the edges', () => {
    expect(trendOf(0, 0)).toBe('flat');
    expect(trendOf(0, 3)).toBe('rise');
    expect(trendOf(100, 110)).toBe('flat');
    expect(trendOf(100, 111)).toBe('rise');
    expect(trendOf(100, 89)).toBe('fall');
    expect(trendOf(5, Infinity)).toBe('rise');
    expect(trendOf(Infinity, 5)).toBe('fall');
    expect(trendOf(Infinity, Infinity)).toBe('flat');
  });
});

describe('the sketch', () => {
  const q = labQuestion(b2b, false);
  const points = quickPoints(b2b, [MB, 4 * MB, 8 * MB, 16 * MB]);

  it('starts at half the axis the lab’s settings give, and moves within what the metric can reach', () => {
    expect(sketchAxisTop(b2b, 'total_throughput_mbps', true)).toBe(1000);
    expect(sketchAxisTop(b2b, 'utilisation', true)).toBe(1);
    expect(sketchAxisTop(b2b, 'mean_outstanding_kbytes', true)).toBeCloseTo((16 * MB) / 1000);
    expect(sketchAxisTop(b2b, 'time_to_max_rate_s', true)).toBe(5);
    expect(sketchAxisTop(b2b, 'time_to_max_rate_s', false)).toBe(10);
    expect(sketchAxisTop(b2b, 'probe_rtt_median_ms', true)).toBe(120);
    expect(sketchAxisTop(b2b, 'mean_queue_pkts', true)).toBe(100);
    expect(sketchAxisTop(b2b, 'drops', true)).toBe(5);
    const s = initialSketch(q, 'reno', 1000);
    expect(s).toEqual({ line: 'reno', values: [500, 500, 500, 500] });
    expect(moveSketchPoint(s, 1, 612.34567, 'total_throughput_mbps').values).toEqual([500, 612.3, 500, 500]);
    expect(moveSketchPoint(s, 1, -5, 'total_throughput_mbps').values[1]).toBe(0);
    expect(moveSketchPoint(s, 1, 1.4, 'utilisation').values[1]).toBe(1);
    expect(moveSketchPoint(s, 9, 1, 'utilisation')).toBe(s);
    expect(sketchStep(1000)).toBe(50);
  });

  it('is compared with the simulated line point by point, in one sentence', () => {
    const agg = onePerPoint('total_throughput_mbps', points, [480, 700, 900, 940, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(scoreSketch(q, { line: 'reno', values: [500, 690, 880, 930] }, agg, points, true)).toMatchObject({
      status: 'scored',
      close: 4,
      total: 4,
      sentence: 'Your sketch of Standard TCP is within 10 % of the simulation at all 4 values.',
    });
    expect(scoreSketch(q, { line: 'reno', values: [900, 690, 880, 930] }, agg, points, true)).toMatchObject({
      close: 3,
      sentence: 'Your sketch of Standard TCP is within 10 % of the simulation at 3 of 4 values; it is furthest at 1 MB: you drew 900 Mb/s, the simulation gives 480 Mb/s.',
    });
    expect(scoreSketch(q, { line: 'reno', values: [1, 1, 1, 1] }, { at_x: [], series: [] }, points, false).status).toBe('pending');
    // Near zero, a miss of a tenth of the line's largest value is close.
    const zero = onePerPoint('total_throughput_mbps', points, [0, 0, 0, 100, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(scoreSketch(q, { line: 'reno', values: [9, 0, 0, 100] }, zero, points, true).close).toBe(4);
  });
});

describe('the prediction in the link, against the lab’s question', () => {
  const q = labQuestion(b2b, true);
  it('keeps a choice, a skip and a sketch that fit; the round trip gives the same prediction', () => {
    const committed: Prediction = { kind: 'committed', choice: 'scalable', sketch: { line: 'highspeed', values: [300, 925.5] } };
    const text = encodePrediction(predictionLink(committed)!);
    expect(text).toBe('scalable~highspeed:300,925.5');
    expect(predictionFromLink(q, text)).toEqual({ prediction: committed, notice: null });
    expect(predictionFromLink(q, 'skip')).toEqual({ prediction: { kind: 'skipped' }, notice: null });
    expect(predictionFromLink(q, null)).toEqual({ prediction: { kind: 'none' }, notice: null });
    expect(predictionLink({ kind: 'none' })).toBeNull();
    expect(parsePrediction(encodePrediction(predictionLink({ kind: 'skipped' })!))).toEqual({ ok: true, value: { choice: 'skip', sketch: null } });
  });

  it('ignores with a notice what does not fit this lab', () => {
    const cases: [string, RegExp][] = [
      ['rise', /“rise” is not one of this lab’s answers \(reno for Standard TCP, highspeed for HighSpeed TCP, scalable for Scalable TCP\)/],
      ['scalable~cubic:1,2', /line “cubic” is not on this lab’s first chart/],
      ['scal able', /choice must be/],
    ];
    for (const [text, reason] of cases) {
      const r = predictionFromLink(q, text);
      expect(r.prediction).toEqual({ kind: 'none' });
      expect(r.notice).toMatch(/^Ignored pred=/);
      expect(r.notice).toMatch(reason);
    }
    // A sketch of the other scale: the answer is kept, the sketch is not.
    const other = predictionFromLink(q, 'scalable~reno:1,2,3');
    expect(other.prediction).toEqual({ kind: 'committed', choice: 'scalable', sketch: null });
    expect(other.notice).toMatch(/the sketch has 3 values; this scale of the lab sweeps 2, so only the answer is kept/);
    const u = labQuestion(lab({ ...b2b, metrics: ['utilisation'] }), true);
    expect(predictionFromLink(u, 'reno~reno:0.5,1.2').notice).toMatch(/a sketch value is above 1, the most the utilisation can be/);
    expect(predictionFromLink(u, 'reno~reno:0.5,1').notice).toBeNull();
  });
});

describe('the prediction a link to the other scale carries', () => {
  const sketched: Prediction = { kind: 'committed', choice: 'scalable', sketch: { line: 'reno', values: [1, 2] } };
  it('is the committed prediction, or nothing', () => {
    expect(predictionForScaleLink({ kind: 'none' }, 'scalable')).toBeNull();
    expect(predictionForScaleLink(sketched, null)).toBe('scalable~reno:1,2');
  });
  it("keeps the address's sketch for the same answer (drawn at the other scale)", () => {
    const answerOnly: Prediction = { kind: 'committed', choice: 'scalable', sketch: null };
    expect(predictionForScaleLink(answerOnly, 'scalable~reno:1,2,3')).toBe('scalable~reno:1,2,3');
    expect(predictionForScaleLink(answerOnly, 'reno~reno:1,2,3')).toBe('scalable');
    // Just committed here, with a sketch the address does not have yet.
    expect(predictionForScaleLink(sketched, 'scalable')).toBe('scalable~reno:1,2');
  });
});
