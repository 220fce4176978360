// Share links and embed snippets for the current scenario.

import type { Scenario } from '../engine/types';
import { encodeScenario } from './urlCodec';
import { encodeView, type ViewOptions } from './view';

/** The page's address without query or fragment (works under any base path). */
export function pageBase(href: string): string {
  const u = new URL(href);
  return `${u.origin}${u.pathname}`;
}

/** A link that reopens `scenario` exactly (seed included). */
export function shareUrl(href: string, scenario: Scenario, defaults: Scenario, view?: Partial<ViewOptions>): string {
  const v = view ? encodeView(view) : '';
  return `${pageBase(href)}?${encodeScenario(scenario, defaults)}${v ? `&${v}` : ''}`;
}

/** Escape text for an HTML attribute value in double quotes. */
export function escapeAttr(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export interface EmbedOptions {
  charts?: string[];
  controls?: string[];
  profile?: ViewOptions['profile'];
  width?: number;
  height?: number;
  title?: string;
}

/** An <iframe> snippet for slides: embed mode, chosen charts and controls. */
export function embedSnippet(href: string, scenario: Scenario, defaults: Scenario, o: EmbedOptions = {}): string {
  const url = shareUrl(href, scenario, defaults, {
    embed: true,
    charts: o.charts,
    controls: o.controls,
    profile: o.profile ?? 'projector',
  });
  const w = o.width ?? 800;
  const h = o.height ?? 500;
  const title = o.title ?? 'Sawtooth TCP congestion-control lab';
  return `<iframe src="${escapeAttr(url)}" width="${w}" height="${h}" title="${escapeAttr(title)}" style="border:0" loading="lazy" allow="clipboard-write"></iframe>`;
}
