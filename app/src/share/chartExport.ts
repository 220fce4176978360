// SVG and PNG exports of a chart: a standalone copy of the chart's <svg>
// with the page's computed styles inlined (so it looks the same outside the
// page), its series named in <title>/<desc> and data-series-ids kept.

const SVG_NS = 'http://www.w3.org/2000/svg';

/** Style properties that matter for an SVG chart. */
const STYLE_PROPS = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-opacity',
  'stroke-dasharray',
  'stroke-linecap',
  'stroke-linejoin',
  'opacity',
  'font-family',
  'font-size',
  'font-weight',
  'text-anchor',
  'dominant-baseline',
  'visibility',
  'display',
] as const;

export interface SvgExportOptions {
  /** Lines drawn on a canvas over the SVG: embedded as an image at its place. */
  canvas?: HTMLCanvasElement | null;
  /** Text for <title> (the chart title). */
  title?: string;
  /** Extra description, e.g. the series names. */
  description?: string;
  /** Background colour (default: the page background). */
  background?: string;
}

/** A standalone SVG document string for `svg` (an element on the page). */
export function serializeChartSvg(svg: SVGSVGElement, o: SvgExportOptions = {}): string {
  const clone = svg.cloneNode(true) as SVGSVGElement;
  const view = svg.ownerDocument.defaultView;
  // Inline computed styles, element by element (same tree shape in the clone).
  if (view) {
    const src = [svg, ...Array.from(svg.querySelectorAll('*'))];
    const dst = [clone, ...Array.from(clone.querySelectorAll('*'))];
    src.forEach((el, i) => {
      const cs = view.getComputedStyle(el);
      const d = dst[i] as SVGElement;
      for (const p of STYLE_PROPS) {
        const v = cs.getPropertyValue(p);
        if (v) d.style.setProperty(p, v);
      }
    });
  }
  const rect = svg.getBoundingClientRect();
  const width = Math.round(rect.width) || Number(svg.getAttribute('width')) || 800;
  const height = Math.round(rect.height) || Number(svg.getAttribute('height')) || 300;
  clone.setAttribute('xmlns', SVG_NS);
  clone.setAttribute('width', String(width));
  clone.setAttribute('height', String(height));
  if (!clone.getAttribute('viewBox')) clone.setAttribute('viewBox', `0 0 ${width} ${height}`);
  const doc = svg.ownerDocument;
  const bg = doc.createElementNS(SVG_NS, 'rect');
  bg.setAttribute('width', '100%');
  bg.setAttribute('height', '100%');
  bg.setAttribute('fill', o.background ?? (view ? view.getComputedStyle(doc.body).backgroundColor : '') ?? '#ffffff');
  clone.insertBefore(bg, clone.firstChild);
  if (o.canvas) {
    const c = o.canvas.getBoundingClientRect();
    const img = doc.createElementNS(SVG_NS, 'image');
    img.setAttribute('x', String(c.left - rect.left));
    img.setAttribute('y', String(c.top - rect.top));
    img.setAttribute('width', String(c.width));
    img.setAttribute('height', String(c.height));
    img.setAttribute('href', o.canvas.toDataURL('image/png'));
    clone.appendChild(img);
  }
  if (o.description) {
    const desc = doc.createElementNS(SVG_NS, 'desc');
    desc.textContent = o.description;
    clone.insertBefore(desc, clone.firstChild);
  }
  if (o.title) {
    const title = doc.createElementNS(SVG_NS, 'title');
    title.textContent = o.title;
    clone.insertBefore(title, clone.firstChild);
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(clone)}`;
}

/** Render an SVG document string to a PNG blob at `scale` × its size. */
export async function svgToPng(svgText: string, width: number, height: number, scale = 2): Promise<Blob> {
  const url = URL.createObjectURL(new Blob([svgText], { type: 'image/svg+xml' }));
  try {
    const img = new Image();
    img.decoding = 'async';
    const loaded = new Promise<void>((resolve, reject) => {
      img.onload = () => resolve();
      img.onerror = () => reject(new Error('the chart image could not be rendered'));
    });
    img.src = url;
    await loaded;
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(width * scale));
    canvas.height = Math.max(1, Math.round(height * scale));
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('no 2D canvas');
    ctx.scale(scale, scale);
    ctx.drawImage(img, 0, 0, width, height);
    return await new Promise<Blob>((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('PNG encoding failed'))), 'image/png'));
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** The chart's main <svg> inside a chart container (figure[data-testid]): the one with the lines, else the largest. */
export function chartSvg(container: Element): SVGSVGElement | null {
  const all = Array.from(container.querySelectorAll('svg')).filter((s) => !s.parentElement?.closest('svg'));
  const withLines = all.find((s) => s.querySelector('path.line, path[data-series]'));
  if (withLines) return withLines;
  const area = (s: SVGSVGElement) => {
    const r = s.getBoundingClientRect();
    return r.width * r.height;
  };
  return all.sort((a, b) => area(b) - area(a))[0] ?? null;
}

/** A canvas drawn over the chart's SVG (lines drawn on canvas), if any. */
export function chartCanvas(container: Element): HTMLCanvasElement | null {
  const c = container.querySelector('canvas');
  return c && c.width > 0 && c.height > 0 ? c : null;
}
