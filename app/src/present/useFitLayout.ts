// Applies frameLayout.ts to the page in the fitted views: the root font
// size, where the controls go and the frame's box (from the window), then
// the charts' grid (from the area the charts get once the controls and the
// legend have taken theirs). Values go on <html> as CSS variables and data
// attributes for present/fit.css; the chart sizing (type scale) is returned
// for the charts' context.

import { useLayoutEffect, useState } from 'react';
import { chooseGrid, fitLayout, type FitLayout, type Grid } from './frameLayout';
import type { FrameSize } from '../share/view';

/** Space between charts, in root ems. */
const GAP_EM = 0.4;

const VARS = ['--fit-w', '--fit-h', '--side-w', '--fit-cols', '--fit-rows', '--fit-last-span', '--fit-gap'];

function same(a: FitLayout | null, b: FitLayout): boolean {
  return !!a && a.fontPx === b.fontPx && a.compact === b.compact && a.controls === b.controls && a.sideWidth === b.sideWidth && a.box.width === b.box.width && a.box.height === b.box.height;
}

export interface FitOptions {
  enabled: boolean;
  frame: FrameSize | null;
  charts: number;
  controls: number;
}

export function useFitLayout({ enabled, frame, charts, controls }: FitOptions): { layout: FitLayout | null; grid: Grid | null } {
  const [layout, setLayout] = useState<FitLayout | null>(null);
  const [grid, setGrid] = useState<Grid | null>(null);
  const fw = frame?.width ?? 0;
  const fh = frame?.height ?? 0;

  // Frame-level decisions, from the window.
  useLayoutEffect(() => {
    const el = document.documentElement;
    if (!enabled) {
      setLayout(null);
      return;
    }
    const apply = () => {
      const l = fitLayout({ width: window.innerWidth, height: window.innerHeight }, fw && fh ? { width: fw, height: fh } : null, charts, controls);
      el.style.fontSize = `${l.fontPx}px`;
      el.style.setProperty('--fit-w', `${l.box.width}px`);
      el.style.setProperty('--fit-h', `${l.box.height}px`);
      el.style.setProperty('--side-w', `${l.sideWidth}px`);
      el.style.setProperty('--fit-gap', `${Math.round(GAP_EM * l.fontPx)}px`);
      el.dataset.controlsAt = l.controls;
      if (l.compact) el.dataset.fitCompact = '1';
      else delete el.dataset.fitCompact;
      setLayout((prev) => (same(prev, l) ? prev : l));
    };
    apply();
    window.addEventListener('resize', apply);
    return () => {
      window.removeEventListener('resize', apply);
      el.style.removeProperty('font-size');
      for (const v of VARS) el.style.removeProperty(v);
      delete el.dataset.controlsAt;
      delete el.dataset.fitCompact;
      delete el.dataset.fitColumns;
      delete el.dataset.fitRows;
    };
  }, [enabled, fw, fh, charts, controls]);

  // The charts' grid, from the area they get (re-measured when it changes:
  // the window, the controls wrapping, a notice appearing).
  const fontPx = layout?.fontPx ?? 0;
  useLayoutEffect(() => {
    if (!enabled || !fontPx) return;
    const el = document.documentElement;
    let watched: HTMLElement | null = null;
    const measure = () => {
      if (!watched) return;
      const area = { width: watched.clientWidth, height: watched.clientHeight };
      if (area.width <= 0 || area.height <= 0) return;
      const g = chooseGrid({ area, charts, gap: Math.round(GAP_EM * fontPx), fontPx });
      el.style.setProperty('--fit-cols', String(g.columns));
      el.style.setProperty('--fit-rows', String(g.rows));
      el.style.setProperty('--fit-last-span', String(g.lastSpan));
      el.dataset.fitColumns = String(g.columns);
      el.dataset.fitRows = String(g.rows);
      setGrid((prev) => (prev && prev.columns === g.columns && prev.rows === g.rows && prev.cellWidth === g.cellWidth && prev.cellHeight === g.cellHeight ? prev : g));
    };
    const ro = new ResizeObserver(measure);
    // The charts' container appears once the engine has loaded.
    const find = () => {
      const c = document.querySelector<HTMLElement>('[data-testid="charts"]');
      if (c && c !== watched) {
        if (watched) ro.unobserve(watched);
        ro.observe(c);
        watched = c;
        measure();
      }
    };
    const mo = new MutationObserver(find);
    mo.observe(document.getElementById('root') ?? document.body, { childList: true, subtree: true });
    find();
    return () => {
      mo.disconnect();
      ro.disconnect();
    };
  }, [enabled, fontPx, charts]);

  return { layout: enabled ? layout : null, grid: enabled ? grid : null };
}
