// Drawing decimated lines on a 2D canvas (the dense series while a run
// streams or plays back). Dashed styles are drawn solid and lighter here:
// stroking dashes along thousands of short segments is what makes a
// software-rendered canvas miss frames (3× slower in Chromium without a
// GPU); the SVG drawn at rest shows the real dash patterns.

import type { DrawnLine } from './chartModel';
import type { LinearScale } from './scale';

/**
 * `widthScale`: thicker lines (the projector profile, slides); `dashes`:
 * draw the dash patterns (a still image can afford them).
 */
export function drawLines(ctx: CanvasRenderingContext2D, lines: DrawnLine[], sx: LinearScale, sy: LinearScale, ghostAlpha = 0.28, widthScale = 1, dashes = false): void {
  for (const l of lines) {
    const p = l.points;
    if (p.length === 0) continue;
    const dashed = dashes && !!l.dash;
    ctx.globalAlpha = l.ghost ? ghostAlpha : l.dash && !dashed ? 0.6 : 1;
    ctx.strokeStyle = l.color;
    ctx.lineWidth = (l.dash && !dashed ? Math.min(l.width, 1.25) : l.width) * widthScale;
    ctx.setLineDash(dashed ? l.dash!.map((d) => d * widthScale) : []);
    ctx.lineJoin = 'round';
    ctx.beginPath();
    let pen = false;
    for (let i = 0; i < p.length; i++) {
      const y = p.y[i];
      if (!Number.isFinite(y)) {
        pen = false;
        continue;
      }
      const px = sx(p.x[i]);
      const py = sy(y);
      if (pen) ctx.lineTo(px, py);
      else ctx.moveTo(px, py);
      pen = true;
    }
    ctx.stroke();
  }
  ctx.globalAlpha = 1;
  ctx.setLineDash([]);
}
