import { describe, expect, it } from 'vitest';
import { encodePrediction, MAX_PREDICTION_CHARS, parsePrediction, predictionNotice, predictionParam, searchWithPrediction, sketchNumber, withLinkPrediction, type PredictionLink } from './prediction';
import { decodeScenario } from './urlCodec';

describe('pred= in a link', () => {
  it('reads a choice, a skip, and a choice with a sketch (a per-group line written series.group)', () => {
    expect(parsePrediction('skip')).toEqual({ ok: true, value: { choice: 'skip', sketch: null } });
    expect(parsePrediction('scalable-1500')).toEqual({ ok: true, value: { choice: 'scalable-1500', sketch: null } });
    expect(parsePrediction('rise~reno:480,900,940.5')).toEqual({ ok: true, value: { choice: 'rise', sketch: { line: 'reno', values: [480, 900, 940.5] } } });
    expect(parsePrediction('bbr-cubic.0~bbr-cubic.1:0.3,0.42,1.5e-7')).toEqual({
      ok: true,
      value: { choice: 'bbr-cubic#0', sketch: { line: 'bbr-cubic#1', values: [0.3, 0.42, 1.5e-7] } },
    });
  });

  it('writes what it reads: every prediction survives the round trip through a URL', () => {
    const cases: PredictionLink[] = [
      { choice: 'skip', sketch: null },
      { choice: 'dctcp', sketch: null },
      { choice: 'a1_25-b1_2', sketch: { line: 'sc-std#1', values: [0, 12.5, 940, 123400000, 0.000012] } },
      { choice: 'flat', sketch: { line: 'reno', values: [0.5] } },
      { choice: 'bbr-cubic#1', sketch: null },
    ];
    for (const p of cases) {
      const text = encodePrediction(p);
      const url = new URL(`https://example.org/?lab=3${searchWithPrediction('?lab=3', text).replace('?lab=3', '')}`);
      const back = parsePrediction(predictionParam(url.search)!);
      expect(back).toEqual({ ok: true, value: p });
    }
    expect(encodePrediction({ choice: 'rise', sketch: { line: 'bbr-cubic#1', values: [1 / 3, 2] } })).toBe('rise~bbr-cubic.1:0.3333,2');
    expect(encodePrediction({ choice: 'bbr-cubic#0', sketch: null })).toBe('bbr-cubic.0');
  });

  it('rounds sketch values to four significant digits, never negative or past the largest value', () => {
    expect(sketchNumber(939.4567)).toBe('939.5');
    expect(sketchNumber(-3)).toBe('0');
    expect(sketchNumber(Number.NaN)).toBe('0');
    expect(sketchNumber(5e12)).toBe('1000000000');
    expect(sketchNumber(0.0000123456)).toBe('0.00001235');
    expect(sketchNumber(1.23456e-8)).toBe('1.235e-8');
  });

  it('refuses what it cannot read, saying why', () => {
    const bad: [string, RegExp][] = [
      ['', /empty/],
      ['DCTCP', /choice must be/],
      ['a b', /choice must be/],
      ['bbr-cubic#0', /choice must be/],
      ['<script>', /choice must be/],
      ['rise~reno:1~x:2', /more than one sketch/],
      ['skip~reno:1,2', /skipped prediction has no sketch/],
      ['rise~reno', /line:value/],
      ['rise~Reno:1', /not a series id/],
      ['rise~reno.123:1', /not a series id/],
      ['rise~reno:1,-2', /not a number of 0 or more/],
      ['rise~reno:1,,2', /not a number/],
      ['rise~reno:1e5', /not a number/],
      ['rise~reno:Infinity', /not a number/],
      ['rise~reno:0x10', /not a number/],
      ['rise~reno:99999999999', /not a number/],
      ['rise~reno:9999999999', /too large/],
      [`rise~reno:${Array(65).fill(1).join(',')}`, /more than 64 points/],
      ['x'.repeat(MAX_PREDICTION_CHARS + 1), /longer than/],
    ];
    for (const [text, reason] of bad) {
      const r = parsePrediction(text);
      expect(r.ok, text).toBe(false);
      if (!r.ok) expect(r.reason, text).toMatch(reason);
    }
  });

  it('a notice quotes at most 40 characters of the value', () => {
    expect(predictionNotice('x'.repeat(100), 'it is wrong')).toBe(`Ignored pred=${'x'.repeat(40)}…: it is wrong.`);
  });

  it('sets, replaces and removes pred= in a query, keeping the rest as written', () => {
    expect(searchWithPrediction('?lab=3&quick=0', 'rise')).toBe('?lab=3&quick=0&pred=rise');
    expect(searchWithPrediction('lab=3&pred=fall&present=1', 'rise')).toBe('?lab=3&present=1&pred=rise');
    expect(searchWithPrediction('?lab=3&pred=fall', null)).toBe('?lab=3');
    expect(searchWithPrediction('?pred=fall', null)).toBe('');
    expect(searchWithPrediction('', 'skip')).toBe('?pred=skip');
    // A parameter whose name only starts with pred is not it.
    expect(searchWithPrediction('?predx=1', null)).toBe('?predx=1');
  });

  it('"Copy link" carries a readable pred= of the page, never an unreadable one', () => {
    expect(withLinkPrediction('https://e.org/app/?v=2&alg=reno', '?v=2&pred=more')).toBe('https://e.org/app/?v=2&alg=reno&pred=more');
    expect(withLinkPrediction('https://e.org/app/?v=2&alg=reno', '?v=2&pred=%3Cb%3E')).toBe('https://e.org/app/?v=2&alg=reno');
    expect(withLinkPrediction('https://e.org/app/?v=2', '?v=2')).toBe('https://e.org/app/?v=2');
  });

  it('the scenario link reader knows pred= (no "unknown parameter" notice)', () => {
    const defaults = decodeScenario('', {} as never).scenario;
    expect(decodeScenario('?lab=3&pred=rise', defaults).notices).toEqual([]);
    expect(decodeScenario('?lab=3&predict=rise', defaults).notices.join(' ')).toMatch(/unknown parameter/);
  });
});
