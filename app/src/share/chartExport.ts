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
  // Labels' halos are strokes painted under the fill (paint-order): without it the halo hides the text.
  'paint-order',
  'opacity',
  'font-family',
  'font-size',
  'font-weight',
  'text-anchor',
  'dominant-baseline',
  'visibility',
  'display',
] as const;

/** One entry of an exported chart's legend: a line swatch (in its colour, or the ink colour) and its label. */
export interface ExportLegendEntry {
  label: string;
  color?: string;
  dash?: number[];
  width: number;
}

/** What an exported chart says about itself above the drawing, so a file pasted into slides reads on its own. */
export interface ExportHeader {
  /** The chart's title, drawn bold. */
  title: string;
  /** One line naming the scenario. */
  caption?: string;
  legend?: readonly ExportLegendEntry[];
}

/** Type of the header band, px, and its swatches. */
const HEADER_PX = { title: 15, text: 12, pad: 8, line: 17, swatch: 22, gap: 14 } as const;

/** Text width estimate, px (the exports' sans-serif at `px`: about 0.58 em per character). */
const textWidth = (text: string, px: number) => text.length * 0.58 * px;

export interface HeaderLayout {
  height: number;
  /** Baselines of the title and the caption (NaN without one). */
  titleY: number;
  captionY: number;
  /** Each legend entry's swatch start and baseline, in order (rows wrap at the width). */
  entries: { x: number; y: number }[];
}

/**
 * Where the header's title, caption and legend entries go in a chart
 * `width` px wide: the title, the caption under it, then the legend's
 * entries left to right, wrapping to further rows where the width ends.
 */
export function headerLayout(header: ExportHeader, width: number): HeaderLayout {
  const { pad, line, swatch, gap, text } = HEADER_PX;
  let y = pad + HEADER_PX.title;
  const titleY = y;
  const captionY = header.caption ? (y += line) : NaN;
  const entries: { x: number; y: number }[] = [];
  const legend = header.legend ?? [];
  if (legend.length) y += line;
  let x = pad;
  for (const e of legend) {
    const w = swatch + 4 + textWidth(e.label, text);
    if (x > pad && x + w > width - pad) {
      x = pad;
      y += line;
    }
    entries.push({ x, y });
    x += w + gap;
  }
  return { height: Math.ceil(y + pad), titleY, captionY, entries };
}

export interface SvgExportOptions {
  /** Lines drawn on a canvas over the SVG: embedded as an image at its place. */
  canvas?: HTMLCanvasElement | null;
  /** Text for <title> (the chart title). */
  title?: string;
  /** Extra description, e.g. the series names. */
  description?: string;
  /** Background colour (default: the page background). */
  background?: string;
  /** A band above the drawing with the title, the scenario and the legend. */
  header?: ExportHeader;
}

/** A standalone SVG document of a chart and its size, px (the header band included). */
export interface ChartSvgDocument {
  text: string;
  width: number;
  height: number;
}

/** A standalone SVG document for `svg` (an element on the page). */
export function serializeChartSvg(svg: SVGSVGElement, o: SvgExportOptions = {}): ChartSvgDocument {
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
  const root = o.header ? withHeader(clone, o.header, width, height, bg.getAttribute('fill') ?? '#ffffff', view ? view.getComputedStyle(svg).color : '') : clone;
  const total = Number(root.getAttribute('height')) || height;
  return { text: `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(root)}`, width, height: total };
}

/** An SVG holding the header band above `chart` (moved down by the band's height). */
function withHeader(chart: SVGSVGElement, header: ExportHeader, width: number, height: number, background: string, ink: string): SVGSVGElement {
  const doc = chart.ownerDocument;
  const el = (name: string, attrs: Record<string, string | number>) => {
    const e = doc.createElementNS(SVG_NS, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    return e;
  };
  const layout = headerLayout(header, width);
  const color = ink || '#1a1a1a';
  const font = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
  const root = el('svg', { xmlns: SVG_NS, width, height: height + layout.height, viewBox: `0 0 ${width} ${height + layout.height}` }) as SVGSVGElement;
  // The chart's own <title> and <desc> name the whole document.
  for (const tag of ['title', 'desc']) {
    const t = chart.querySelector(`:scope > ${tag}`);
    if (t) root.appendChild(t);
  }
  root.appendChild(el('rect', { width: '100%', height: '100%', fill: background }));
  const text = (content: string, attrs: Record<string, string | number>) => {
    const t = el('text', { 'font-family': font, fill: color, ...attrs });
    t.textContent = content;
    root.appendChild(t);
  };
  text(header.title, { x: HEADER_PX.pad, y: layout.titleY, 'font-size': HEADER_PX.title, 'font-weight': 700, 'data-export': 'title' });
  if (header.caption) text(header.caption, { x: HEADER_PX.pad, y: layout.captionY, 'font-size': HEADER_PX.text, 'data-export': 'caption' });
  (header.legend ?? []).forEach((e, i) => {
    const at = layout.entries[i];
    const g = el('g', { 'data-export': 'legend-entry' });
    const y = at.y - HEADER_PX.text * 0.35;
    const swatch = el('line', { x1: at.x, x2: at.x + HEADER_PX.swatch, y1: y, y2: y, stroke: e.color ?? color, 'stroke-width': e.width });
    if (e.dash?.length) swatch.setAttribute('stroke-dasharray', e.dash.join(' '));
    g.appendChild(swatch);
    const t = el('text', { x: at.x + HEADER_PX.swatch + 4, y: at.y, 'font-family': font, 'font-size': HEADER_PX.text, fill: color });
    t.textContent = e.label;
    g.appendChild(t);
    root.appendChild(g);
  });
  chart.setAttribute('x', '0');
  chart.setAttribute('y', String(layout.height));
  chart.removeAttribute('xmlns');
  root.appendChild(chart);
  return root;
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
