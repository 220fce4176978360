// The page's start: the scenario from the URL, checked by the engine, with
// one list of notices for everything that was ignored (shown as text).

import type { Scenario } from '../engine/types';
import { capNotices, sanitizeScenario, type Validate } from './sanitize';
import { decodeScenario } from './urlCodec';
import { checkNames, parseView, type ViewOptions } from './view';

export interface UrlStart {
  scenario: Scenario;
  view: ViewOptions;
  /** Plain-text sentences naming what was ignored. */
  notices: string[];
  /** The URL carried scenario parameters. */
  fromUrl: boolean;
}

export async function loadFromUrl(search: string, defaults: Scenario, validate: Validate): Promise<UrlStart> {
  const decoded = decodeScenario(search, defaults);
  const { view, notices: viewNotices } = parseView(search);
  const notices = [...decoded.notices, ...viewNotices];
  let scenario = decoded.scenario;
  let unlisted = 0;
  if (decoded.fromUrl) {
    try {
      const s = await sanitizeScenario(decoded.scenario, defaults, validate, 'the link');
      scenario = s.scenario;
      notices.push(...s.notices);
      unlisted = s.unlisted;
    } catch {
      // The engine could not answer (it failed to load): the run reports that.
    }
  }
  return { scenario, view, notices: capNotices(notices, unlisted), fromUrl: decoded.fromUrl };
}

/** Restrict the view to the charts (and controls, when `controls` is given) the page has, noting the rest. */
export function resolveView(view: ViewOptions, charts: readonly string[], controls: readonly string[] | null): { view: ViewOptions; notices: string[] } {
  const notices: string[] = [];
  return {
    view: {
      ...view,
      charts: checkNames('charts', view.charts, charts, notices),
      controls: controls ? checkNames('controls', view.controls, controls, notices) : view.controls,
    },
    notices,
  };
}

/** Is chart `id` shown? (every chart unless ?charts= lists some) */
export function chartShown(view: ViewOptions, id: string): boolean {
  return view.charts === null || view.charts.includes(id);
}

/** Is control `id` shown? In embed mode only the listed ones, on the lab page all unless listed. */
export function controlShown(view: ViewOptions, id: string): boolean {
  if (view.controls === null) return !view.embed;
  return view.controls.includes(id);
}
