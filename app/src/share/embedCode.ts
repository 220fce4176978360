// What the embed builder makes: the embed link (every choice is a link
// parameter, docs/TEST-SURFACE.md section 1) and the HTML to paste into a
// page or slide tool, a fixed-size <iframe> or a responsive one that keeps
// its shape at any width.

import type { Scenario } from '../engine/types';
import { escapeAttr, shareUrl } from './links';
import type { FrameSize, Theme } from './view';

export type EmbedSize = { kind: 'fixed'; width: number; height: number } | { kind: 'responsive'; aspect: [number, number] };

export interface EmbedChoice {
  /** Chart ids, in the page's order. */
  charts: string[];
  /** Control ids (section 9's controls= ids, and `playback` for the playback bar). */
  controls: string[];
  theme: Exclude<Theme, 'auto'>;
  autoplay: boolean;
  /** Playback speed, × real time. */
  speed: number;
  size: EmbedSize;
}

export const FRAME_PRESETS: readonly FrameSize[] = [
  { width: 480, height: 270 },
  { width: 960, height: 540 },
  { width: 1280, height: 720 },
  { width: 1920, height: 1080 },
  { width: 1024, height: 768 },
];

export const ASPECTS: readonly [number, number][] = [
  [16, 9],
  [4, 3],
  [16, 10],
];

export const DEFAULT_CHOICE: EmbedChoice = {
  charts: ['cwnd', 'throughput'],
  controls: ['rtt'],
  theme: 'projector',
  autoplay: false,
  speed: 1,
  size: { kind: 'fixed', width: 960, height: 540 },
};

export const EMBED_TITLE = 'Sawtooth TCP congestion-control lab';

/** The embed link: the scenario, embed mode and every choice the builder made. */
export function embedLink(href: string, scenario: Scenario, defaults: Scenario, c: EmbedChoice): string {
  return shareUrl(href, scenario, defaults, {
    embed: true,
    // None ticked: the embed's defaults (every chart, no control).
    charts: c.charts.length ? c.charts : undefined,
    controls: c.controls.length ? c.controls : undefined,
    theme: c.theme,
    autoplay: c.autoplay,
    speed: c.speed === 1 ? null : c.speed,
    frame: c.size.kind === 'fixed' ? { width: c.size.width, height: c.size.height } : null,
  });
}

/** The HTML to paste: an <iframe> of the link at the chosen size (full screen allowed, for presenting). */
export function iframeSnippet(link: string, size: EmbedSize, title = EMBED_TITLE): string {
  const src = escapeAttr(link);
  const t = escapeAttr(title);
  if (size.kind === 'fixed')
    return `<iframe src="${src}" width="${size.width}" height="${size.height}" title="${t}" style="border:0" loading="lazy" allow="fullscreen; clipboard-write"></iframe>`;
  const [w, h] = size.aspect;
  return `<div style="position:relative;width:100%;aspect-ratio:${w}/${h}"><iframe src="${src}" title="${t}" style="position:absolute;inset:0;width:100%;height:100%;border:0" loading="lazy" allow="fullscreen; clipboard-write"></iframe></div>`;
}

/** The chart ids in the page's order (whatever order they were ticked in). */
export function inOrder(chosen: readonly string[], order: readonly string[]): string[] {
  return order.filter((id) => chosen.includes(id));
}

/** A frame size typed into the builder, clamped to what frame= accepts. */
export function clampFrame(width: number, height: number, min: FrameSize, max: FrameSize): FrameSize {
  const c = (v: number, lo: number, hi: number) => Math.round(Math.min(hi, Math.max(lo, Number.isFinite(v) ? v : lo)));
  return { width: c(width, min.width, max.width), height: c(height, min.height, max.height) };
}
