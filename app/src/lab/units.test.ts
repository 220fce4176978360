import { describe, expect, it } from 'vitest';
import { formatBytes, formatRate, parseQuantity, trimNumber, unitFor, valueText } from './units';

describe('formatting', () => {
  it('formats bytes with binary prefixes and rates with SI prefixes', () => {
    expect(formatBytes(16 * 2 ** 20)).toBe('16 MB');
    expect(formatBytes(65536)).toBe('64 KB');
    expect(formatBytes(1.5 * 2 ** 20)).toBe('1.5 MB');
    expect(formatBytes(512 * 2 ** 20)).toBe('512 MB');
    expect(formatBytes(100)).toBe('100 B');
    expect(formatRate(1e9)).toBe('1 Gb/s');
    expect(formatRate(2.5e8)).toBe('250 Mb/s');
    expect(formatRate(10e6)).toBe('10 Mb/s');
    expect(formatRate(NaN)).toBe('–');
  });
  it('trims numbers to significant digits without trailing zeros', () => {
    expect(trimNumber(0.125)).toBe('0.125');
    expect(trimNumber(1 / 3)).toBe('0.3333');
    expect(trimNumber(83000)).toBe('83000');
    expect(trimNumber(1e-7)).toBe('1e-7');
  });
});

describe('valueText (a slider\'s aria-valuetext)', () => {
  it('names the unit once', () => {
    expect(valueText(40, 'ms', 'ms')).toBe('40 ms');
    expect(valueText(20, 's', 's')).toBe('20 s');
    expect(valueText(16 * 2 ** 20, 'bytes', 'bytes')).toBe('16 MB');
    expect(valueText(1e9, 'rate', 'b/s')).toBe('1 Gb/s');
    expect(valueText(300, 'packets', 'packets')).toBe('300 packets');
    expect(valueText(2, 'plain', 'streams')).toBe('2 streams');
    expect(valueText(7, 'plain', '')).toBe('7');
  });
});

describe('parseQuantity', () => {
  it('reads plain numbers, fractions and unit suffixes', () => {
    expect(parseQuantity('16M', 'bytes')).toBe(16 * 2 ** 20);
    expect(parseQuantity('16 MB', 'bytes')).toBe(16 * 2 ** 20);
    expect(parseQuantity('65536', 'bytes')).toBe(65536);
    expect(parseQuantity('1G', 'rate')).toBe(1e9);
    expect(parseQuantity('250 Mb/s', 'rate')).toBe(2.5e8);
    expect(parseQuantity('1/50', 'plain')).toBeCloseTo(0.02);
    expect(parseQuantity('2.5e-5', 'plain')).toBe(2.5e-5);
    expect(parseQuantity('1%', 'plain')).toBe(0.01);
    expect(parseQuantity('0.2 s', 'ms')).toBe(200);
    expect(parseQuantity('1,000', 'packets')).toBe(1000);
  });
  it('rejects what it cannot read', () => {
    expect(parseQuantity('fast', 'ms')).toBeNull();
    expect(parseQuantity('16 parsecs', 'bytes')).toBeNull();
    expect(parseQuantity('1/0', 'plain')).toBeNull();
    expect(parseQuantity('', 'plain')).toBeNull();
    expect(parseQuantity('0x10', 'plain')).toBeNull();
  });
});

describe('unitFor: counted units read right after the value', () => {
  it('makes the counted noun singular for exactly one', () => {
    expect(unitFor(1, 'packets/RTT')).toBe('packet/RTT');
    expect(unitFor(1, 'streams')).toBe('stream');
    expect(valueText(1, 'plain', 'packets/RTT')).toBe('1 packet/RTT');
  });
  it('keeps plurals, fractions and other units as they are', () => {
    expect(unitFor(2, 'packets/RTT')).toBe('packets/RTT');
    expect(unitFor(0.5, 'packets')).toBe('packets');
    expect(unitFor(1, 'ms')).toBe('ms');
    expect(unitFor(1, '')).toBe('');
  });
});
