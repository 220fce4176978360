// Share links for the current scenario (embed code: embedCode.ts).

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
