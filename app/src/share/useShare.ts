// React glue for the share features: keep the address bar on the current
// scenario, mark the document for embed mode / colour profile, and post
// embed messages to the parent page.

import { useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import type { EngineError } from '../engine/errors';
import type { RunSummary, Scenario } from '../engine/types';
import { EmbedChannel, parentWindow } from './embedMessages';
import { resolveTheme, useSystemDark } from './theme';
import { encodeScenario } from './urlCodec';
import { encodeView, type ViewOptions } from './view';

/** Replace the URL's query with the scenario's link (no history entries, no reload). */
export function useUrlSync(scenario: Scenario | null, defaults: Scenario | null, view: ViewOptions | null, keep: string[] = ['sw', 'render']): void {
  useEffect(() => {
    if (!scenario || !defaults) return;
    const id = setTimeout(() => {
      const url = new URL(window.location.href);
      const kept = keep.map((k) => [k, url.searchParams.get(k)] as const).filter(([, v]) => v !== null && /^[a-z0-9]{1,16}$/.test(v!));
      const parts = [encodeScenario(scenario, defaults)];
      const v = view ? encodeView(view) : '';
      if (v) parts.push(v);
      for (const [k, val] of kept) parts.push(`${k}=${val}`);
      const next = `${url.pathname}?${parts.join('&')}${url.hash}`;
      if (next !== `${url.pathname}${url.search}${url.hash}`) window.history.replaceState(window.history.state, '', next);
    }, 150);
    return () => clearTimeout(id);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [scenario, defaults, view]);
}

function mark(el: HTMLElement, name: 'embed' | 'present' | 'fit' | 'showPlayback', on: boolean): void {
  if (on) el.dataset[name] = '1';
  else delete el.dataset[name];
}

/**
 * Marks on <html> for the CSS: data-embed, data-present, data-fit (laid out
 * to fill the window: embed or presentation mode on the lab page),
 * data-show-playback (the playback bar in a fitted view), data-profile and
 * data-theme (the theme shown: light, dark or projector). Set before the
 * browser paints, so a forced theme never flashes the other.
 */
export function useDocumentView(view: ViewOptions | null, fit = false, showPlayback = false): void {
  const systemDark = useSystemDark();
  useLayoutEffect(() => {
    const el = document.documentElement;
    if (!view) return;
    mark(el, 'embed', view.embed);
    mark(el, 'present', view.present);
    mark(el, 'fit', fit);
    mark(el, 'showPlayback', showPlayback);
    el.dataset.profile = view.profile;
    el.dataset.theme = resolveTheme(view.theme, systemDark);
  }, [view, fit, showPlayback, systemDark]);
}

/**
 * In embed mode, post `sawtooth:ready` once the engine is ready and one
 * `sawtooth:summary` (or `sawtooth:error`) per finished run.
 */
export function useEmbedMessages(
  view: ViewOptions | null,
  engineReady: boolean,
  run: { runId: number; state: string; summary: RunSummary | null; scenario: Scenario | null; error: EngineError | null },
): void {
  const channel = useMemo(() => (view?.embed ? new EmbedChannel(parentWindow(), view.targetOrigin) : null), [view?.embed, view?.targetOrigin]);
  const readyRef = useRef(false);
  useEffect(() => {
    if (channel && engineReady && !readyRef.current) {
      readyRef.current = true;
      channel.ready();
    }
  }, [channel, engineReady]);
  useEffect(() => {
    if (!channel || !engineReady) return;
    if (run.state === 'done' && run.summary) channel.summary(run.runId, run.summary, run.scenario);
    else if (run.state === 'error' && run.error) channel.error(run.runId, run.error);
  }, [channel, engineReady, run.runId, run.state, run.summary, run.scenario, run.error]);
}
