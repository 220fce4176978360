import { describe, expect, it } from 'vitest';
import { decimalsForStep, formatBitrate, formatMbps, formatTick } from './format';

describe('decimalsForStep', () => {
  it('gives the decimals that resolve the step', () => {
    expect(decimalsForStep(1)).toBe(0);
    expect(decimalsForStep(500)).toBe(0);
    expect(decimalsForStep(0.5)).toBe(1);
    expect(decimalsForStep(0.2)).toBe(1);
    expect(decimalsForStep(0.05)).toBe(2);
    expect(decimalsForStep(0.001)).toBe(3);
    expect(decimalsForStep(0)).toBe(0);
  });
});

describe('formatTick', () => {
  it('groups thousands and uses the step precision', () => {
    expect(formatTick(12000, 2000)).toBe('12,000');
    expect(formatTick(0.25, 0.05)).toBe('0.25');
    expect(formatTick(1, 0.5)).toBe('1.0');
    expect(formatTick(-0, 1)).toBe('0');
  });
});

describe('formatBitrate', () => {
  it('picks an SI unit with three significant digits', () => {
    expect(formatBitrate(939_460_000)).toBe('939 Mb/s');
    expect(formatBitrate(1_250_000_000)).toBe('1.25 Gb/s');
    expect(formatBitrate(12_500)).toBe('12.5 kb/s');
    expect(formatBitrate(0)).toBe('0 b/s');
    expect(formatBitrate(999_600)).toBe('1.00 Mb/s');
    expect(formatBitrate(NaN)).toBe('–');
  });
});

describe('formatMbps', () => {
  it('formats megabits with fixed decimals', () => {
    expect(formatMbps(939_460_000)).toBe('939.5');
    expect(formatMbps(1e9, 0)).toBe('1000');
  });
});
