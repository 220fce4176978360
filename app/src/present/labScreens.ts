// A guided lab in presentation mode, as plain functions: its screens (one
// full-size chart per screen), the type sized from the window's height, the
// charts' type scaled with it, and how a screen's text is split into pages
// that fit the window. LabStepper.tsx renders them; useScreenPaging.ts
// measures the page breaks in the DOM with `paginate`.

import { BASE_TICK_PX, type ChartSizing } from '../charts/chartSizing';
import type { Size } from './frameLayout';

/** A result chart of the lab, as it registers with the stepper (guided/LabDetail.tsx). */
export interface ChartScreenSpec {
  /** The chart's id (data-testid="lab-chart-<id>"). */
  id: string;
  title: string;
}

export interface LabScreen {
  /** `data-step`: question, prediction, run, chart-<chart id>, shows, paper. */
  id: string;
  /** The screen's name in the stepper and for screen readers. */
  title: string;
  /** The shorter name shown on the stepper's button of the current screen. */
  short: string;
}

const FIRST: readonly LabScreen[] = [
  { id: 'question', title: 'The question', short: 'The question' },
  { id: 'prediction', title: 'Your prediction', short: 'Your prediction' },
  { id: 'run', title: 'Run the sweep', short: 'Run the sweep' },
];
const LAST: readonly LabScreen[] = [
  { id: 'shows', title: 'What the runs show', short: 'What the runs show' },
  { id: 'paper', title: 'The paper beside the simulation', short: 'The paper beside the simulation' },
];

/** The screen a chart is shown on: the first with the sweep's controls (`run`), each other on its own. */
export function chartScreenId(index: number, chartId: string): string {
  return index === 0 ? 'run' : `chart-${chartId}`;
}

/**
 * The lab's screens in order: the question, the prediction, the run with
 * the first result chart, one screen per further chart, what the runs
 * show (the checked sentences, notes and tables), the paper's values
 * beside the simulation's.
 */
export function labScreens(charts: readonly ChartScreenSpec[]): LabScreen[] {
  const more = charts.slice(1).map((c, i) => ({ id: chartScreenId(i + 1, c.id), title: `Result ${i + 2}: ${c.title}`, short: c.title }));
  return [...FIRST, ...more, ...LAST];
}

/** Smallest and largest root font size of a guided lab's presentation, px. */
export const PRESENT_MIN_FONT_PX = 14;
export const PRESENT_MAX_FONT_PX = 44;

/**
 * Root font size of a guided lab in presentation mode, from the window:
 * 2.8 % of its height (1.6 % of its width when that is less), to the half
 * pixel. 1920×1080: 30 px; 1280×720: 20 px. present.css's rule for the
 * other presentation pages says the same in CSS.
 */
export function presentFontPx(window: Size): number {
  const px = Math.round(Math.min(window.height * 0.028, window.width * 0.016) * 2) / 2;
  return Math.min(PRESENT_MAX_FONT_PX, Math.max(PRESENT_MIN_FONT_PX, px));
}

/** Chart tick labels in presentation mode, as a fraction of the body text (1080p: 21 px beside 30 px). */
export const PRESENT_TICK_EM = 0.7;

/** The result charts' sizing in presentation mode: filling their screen, type scaled with the body text. */
export function presentChartSizing(fontPx: number): ChartSizing {
  return { fill: true, scale: (PRESENT_TICK_EM * fontPx) / BASE_TICK_PX, lineScale: 1 };
}

/**
 * Page breaks of `n` items shown in order, each page as many items as fit:
 * the index each page starts at. `fits(start, end)` says whether items
 * start…end (inclusive) fit on one page (more items never fit better); an
 * item that does not fit alone gets a page of its own. A heading
 * (`keepWithNext`) never ends a page that has room for nothing after it.
 */
export function paginate(n: number, fits: (start: number, end: number) => boolean, keepWithNext: (i: number) => boolean = () => false): number[] {
  const starts: number[] = [];
  let s = 0;
  while (s < n) {
    starts.push(s);
    let best = s;
    if (fits(s, n - 1)) best = n - 1;
    else {
      let lo = s + 1;
      let hi = n - 2;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        if (fits(s, mid)) {
          best = mid;
          lo = mid + 1;
        } else hi = mid - 1;
      }
      while (best > s && keepWithNext(best)) best--;
    }
    s = best + 1;
  }
  return starts;
}
