import { describe, expect, it } from 'vitest';
import type { ConstantLine } from './chartModel';
import { layoutLimitLabels, LIMIT_LABEL_H, limitText, overlaps, spreadLabels } from './labels';
import { linearScale } from './scale';

/** Every two boxes of height `h` are at least `gap` apart. */
function apart(tops: number[], h: number, gap = 0): boolean {
  const s = [...tops].sort((a, b) => a - b);
  return s.every((t, i) => i === 0 || t - s[i - 1] >= h + gap - 1e-9);
}

describe('spreadLabels', () => {
  it('leaves labels that do not collide where they are', () => {
    expect(spreadLabels([10, 40, 80], 12, { min: 0, max: 200, gap: 2 })).toEqual([10, 40, 80]);
    expect(spreadLabels([], 12, { min: 0, max: 100 })).toEqual([]);
  });

  it('splits two labels at one height evenly around it, in input order', () => {
    const t = spreadLabels([50, 50], 12, { min: 0, max: 200, gap: 2 });
    expect(t).toEqual([43, 57]);
    expect(overlaps(t[0], 12, t[1], 12)).toBe(false);
  });

  it('moves overlapping labels as a block centred on where they want to be', () => {
    const t = spreadLabels([100, 105, 110], 12, { min: 0, max: 300, gap: 0 });
    // Mean of wanted tops 105; block of three 12 px labels centred there.
    expect(t).toEqual([93, 105, 117]);
    expect(apart(t, 12)).toBe(true);
  });

  it('keeps the vertical order of the wanted positions, whatever the input order', () => {
    const t = spreadLabels([60, 20, 58], 12, { min: 0, max: 200, gap: 1 });
    expect(t[1]).toBe(20);
    expect(t[2]).toBeLessThan(t[0]);
    expect(apart(t, 12, 1)).toBe(true);
  });

  it('stays inside the band: labels at the top edge stack downwards', () => {
    const t = spreadLabels([1, 1, 1, 1], 12, { min: 0, max: 190, gap: 1 });
    expect(t).toEqual([0, 13, 26, 39]);
    const b = spreadLabels([185, 185], 12, { min: 0, max: 190, gap: 2 });
    expect(Math.max(...b) + 12).toBeLessThanOrEqual(190);
    expect(apart(b, 12, 2)).toBe(true);
  });

  it('a block pushed against an edge pushes into the labels beside it', () => {
    const t = spreadLabels([0, 0, 0, 14], 10, { min: 0, max: 100, gap: 0 });
    expect(t).toEqual([0, 10, 20, 30]);
  });

  it('when the labels cannot fit, they start at the top and never overlap', () => {
    const t = spreadLabels([5, 5, 5, 5, 5], 12, { min: 0, max: 30, gap: 0 });
    expect(t).toEqual([0, 12, 24, 36, 48]);
  });

  it('takes a height per label', () => {
    const t = spreadLabels([50, 50], [20, 10], { min: 0, max: 200, gap: 0 });
    expect(overlaps(t[0], 20, t[1], 10)).toBe(false);
    expect(t[1]).toBe(t[0] + 20);
  });
});

describe('layoutLimitLabels', () => {
  const line = (id: string, value: number, offScale = false): ConstantLine => ({ id, label: id, color: '#000', width: 1, value, offScale });
  const sy = linearScale([0, 20], [190, 0]);

  it('puts two flows’ windows at one value apart, near their line', () => {
    const labels = layoutLimitLabels([line('f0.window_bytes', 16), line('f1.window_bytes', 16)], sy, 190, 'MB');
    const boxes = labels.map((l) => l.y - 9);
    expect(overlaps(boxes[0], LIMIT_LABEL_H, boxes[1], LIMIT_LABEL_H)).toBe(false);
    // Around the line (y = 38): within two label heights of it.
    for (const l of labels) expect(Math.abs(l.y - sy(16))).toBeLessThan(2 * LIMIT_LABEL_H + 2);
    expect(labels[0].text).toBe('f0.window_bytes 16 MB');
  });

  it('stacks labels of limits above the axis at the top edge, with an arrow', () => {
    const labels = layoutLimitLabels([line('f0.window_bytes', 64, true), line('f1.window_bytes', 64, true)], sy, 190, 'MB');
    expect(labels.map((l) => l.y)).toEqual([9, 22]);
    expect(labels[1].text).toBe('f1.window_bytes ↑ 64 MB');
    expect(labels.every((l) => l.offScale)).toBe(true);
  });

  it('puts the label of a line at the top of the plot below it', () => {
    const [l] = layoutLimitLabels([line('capacity_bps', 20)], sy, 190, 'Mb/s');
    expect(l.y - 9).toBeGreaterThanOrEqual(0);
    expect(l.y).toBeGreaterThan(sy(20));
  });
});

describe('limitText', () => {
  const c = { label: 'bottleneck buffer', value: 1000, offScale: true };
  it('names the limit where the plot is wide enough', () => {
    expect(limitText(c, 'packets')).toBe('bottleneck buffer ↑ 1,000 packets');
    expect(limitText({ ...c, offScale: false }, 'packets', 400)).toBe('bottleneck buffer 1,000 packets');
  });

  it('shortens the name, then keeps only the value, in a narrow plot (a small embed), larger type narrowing it sooner', () => {
    expect(limitText(c, 'packets', 150)).toBe('buffer ↑ 1,000 packets');
    expect(limitText(c, 'packets', 100)).toBe('↑ 1,000 packets');
    expect(limitText({ ...c, offScale: false }, 'packets', 220)).toBe('bottleneck buffer 1,000 packets');
    expect(limitText({ ...c, offScale: false }, 'packets', 220, 16)).toBe('buffer 1,000 packets');
    expect(limitText({ ...c, offScale: false }, 'packets', 150, 16)).toBe('1,000 packets');
    // Two limits of one value still say which is which.
    expect(limitText({ label: 'host 0 txqueuelen', value: 100, offScale: false }, 'packets', 150)).toBe('txqueuelen 100 packets');
  });

  it('writes whole values without decimals', () => {
    expect(limitText({ ...c, value: 40, offScale: false }, 'packets')).toBe('bottleneck buffer 40 packets');
    expect(limitText({ ...c, value: 12.5, offScale: false }, 'MB')).toBe('bottleneck buffer 12.5 MB');
  });
});
