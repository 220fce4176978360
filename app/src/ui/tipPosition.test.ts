import { describe, expect, it } from 'vitest';
import { insideViewport, placeTip } from './tipPosition';

const VIEW = { width: 1280, height: 720 };
const TIP = { width: 272, height: 90 };
const button = (left: number, top: number) => ({ left, top, width: 17, height: 17 });

describe('placeTip', () => {
  it('centres the tip below its button when it fits', () => {
    const p = placeTip(button(600, 200), TIP, VIEW);
    expect(p.side).toBe('bottom');
    expect(p.top).toBe(200 + 17 + 6);
    expect(p.left).toBe(608.5 - 136);
    expect(p.arrowX).toBe(136);
  });

  it('shifts the tip right at the left edge (a sidebar button) and left at the right edge (a toolbar button)', () => {
    const l = placeTip(button(60, 240), TIP, VIEW);
    expect(l.left).toBe(8);
    expect(l.arrowX).toBeCloseTo(68.5 - 8, 9);
    const r = placeTip(button(1250, 150), TIP, VIEW);
    expect(r.left + TIP.width).toBe(1280 - 8);
    expect(r.arrowX).toBeLessThanOrEqual(TIP.width - 10);
    for (const p of [l, r]) expect(insideViewport({ ...p, ...TIP }, VIEW)).toBe(true);
  });

  it('flips above the button near the bottom of the viewport', () => {
    const p = placeTip(button(600, 680), TIP, VIEW);
    expect(p.side).toBe('top');
    expect(p.top).toBe(680 - 6 - 90);
  });

  it('takes the side with more room when it fits on neither, clamped inside', () => {
    const tall = { width: 272, height: 500 };
    const p = placeTip(button(600, 250), tall, { width: 1280, height: 600 });
    expect(p.side).toBe('bottom');
    expect(insideViewport({ ...p, ...tall }, { width: 1280, height: 600 })).toBe(true);
    const q = placeTip(button(600, 400), tall, { width: 1280, height: 600 });
    expect(q.side).toBe('top');
    expect(insideViewport({ ...q, ...tall }, { width: 1280, height: 600 })).toBe(true);
  });

  it('keeps the tip on screen when its button is scrolled partly out of view', () => {
    for (const b of [button(-10, -5), button(1275, 715), button(640, -30)]) {
      const p = placeTip(b, TIP, VIEW);
      expect(insideViewport({ ...p, ...TIP }, VIEW)).toBe(true);
    }
  });

  it('starts at the margin when the tip is larger than the viewport', () => {
    const p = placeTip(button(100, 100), { width: 400, height: 300 }, { width: 300, height: 200 }, { margin: 4 });
    expect(p.left).toBe(4);
    expect(p.top).toBe(4);
  });
});

describe('insideViewport', () => {
  it('is true on the edges and false past them', () => {
    expect(insideViewport({ left: 0, top: 0, width: 1280, height: 720 }, VIEW)).toBe(true);
    expect(insideViewport({ left: 1, top: 0, width: 1280, height: 720 }, VIEW)).toBe(false);
    expect(insideViewport({ left: 0, top: -1, width: 10, height: 10 }, VIEW)).toBe(false);
  });
});
