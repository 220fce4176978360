// Where a glossary tip goes: below its "?" button, centred on it, flipped
// above when it does not fit below (and fits better above), and shifted or
// clamped so that it stays inside the viewport. Pure: the Tip component
// measures the button and the tip and renders at the result (position: fixed,
// so the coordinates are viewport coordinates).

export interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface Size {
  width: number;
  height: number;
}

export interface TipPlacement {
  left: number;
  top: number;
  side: 'bottom' | 'top';
  /** Horizontal offset of the trigger's centre from the tip's left edge (for an arrow), clamped inside the tip. */
  arrowX: number;
}

export interface PlaceOptions {
  /** Space between the trigger and the tip, px. */
  gap?: number;
  /** Least space between the tip and the viewport's edges, px. */
  margin?: number;
}

const clamp = (v: number, lo: number, hi: number) => (hi < lo ? lo : Math.min(hi, Math.max(lo, v)));

/**
 * Position of a tip of size `tip` for a trigger at `trigger` in a viewport of
 * size `viewport`. Below the trigger when it fits; else above when it fits
 * there; else on the side with more room. Then clamped to the viewport (less
 * the margin) on both axes: a tip taller or wider than the viewport starts
 * at the top or left margin.
 */
export function placeTip(trigger: Rect, tip: Size, viewport: Size, opts: PlaceOptions = {}): TipPlacement {
  const gap = opts.gap ?? 6;
  const margin = opts.margin ?? 8;
  const cx = trigger.left + trigger.width / 2;

  const below = trigger.top + trigger.height + gap;
  const above = trigger.top - gap - tip.height;
  const roomBelow = viewport.height - margin - below;
  const roomAbove = trigger.top - gap - margin;
  let side: 'bottom' | 'top';
  if (tip.height <= roomBelow) side = 'bottom';
  else if (tip.height <= roomAbove) side = 'top';
  else side = roomAbove > roomBelow ? 'top' : 'bottom';

  const top = clamp(side === 'bottom' ? below : above, margin, viewport.height - margin - tip.height);
  const left = clamp(cx - tip.width / 2, margin, viewport.width - margin - tip.width);
  const arrowX = clamp(cx - left, Math.min(10, tip.width / 2), Math.max(tip.width - 10, tip.width / 2));
  return { left, top, side, arrowX };
}

/** True when the rectangle lies fully inside a viewport of size `viewport` (edges included). */
export function insideViewport(r: Rect, viewport: Size): boolean {
  return r.left >= 0 && r.top >= 0 && r.left + r.width <= viewport.width && r.top + r.height <= viewport.height;
}
